import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { clippedInMain } from '../support/layout';
import { DEMO_EMAIL, login, registerLearner, screenshot } from '../support/session';

// Issue 32 item 15: the admin's and a provider's dashboards draw their figures as charts, each with
// a table of the same figures, at 1280 and 360 px. A learner first buys the demo provider's course,
// so the revenue charts have a month to draw.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Buyer#2026';
const COURSE = 'Docker from Scratch';
const THIS_MONTH = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
  new Date(),
);

/** Console errors of the page (recharts warns of a chart drawn into no room, React of bad keys). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || (m.type() === 'warning' && /recharts|width\(0\)|height\(0\)/.test(m.text())))
      errors.push(m.text());
  });
  return errors;
}

/** The chart of a panel: a picture named by its summary, an SVG inside that fits the panel. */
async function expectChart(page: Page, title: string, summary: RegExp) {
  const panel = page.getByRole('region', { name: title, exact: true });
  const picture = panel.getByRole('img', { name: summary });
  await expect(picture).toBeVisible();
  const svg = picture.locator('svg.recharts-surface').first();
  await expect(svg).toBeVisible();
  const [box, chart] = await Promise.all([panel.boundingBox(), svg.boundingBox()]);
  expect(chart!.width).toBeGreaterThan(100);
  expect(chart!.x).toBeGreaterThanOrEqual(box!.x);
  expect(chart!.x + chart!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
  return panel;
}

/** 'Show as table' swaps the chart for a captioned table; returns it. */
async function openTable(page: Page, title: string) {
  const panel = page.getByRole('region', { name: title, exact: true });
  await panel.getByRole('button', { name: 'Show as table' }).click();
  const table = panel.getByRole('table', { name: title });
  await expect(table).toBeVisible();
  await expect(panel.getByRole('img')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Show as chart' })).toHaveAttribute('aria-controls', /.+/);
  return table;
}

test('a learner buys the demo provider’s course (the revenue the charts draw)', async ({ page }) => {
  const email = await registerLearner(page, {
    stem: 'chart-buyer',
    first_name: 'Chandra',
    last_name: 'Buyer',
    password: PASSWORD,
  });
  await login(page, email, PASSWORD);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/courses');
  await page.getByRole('link', { name: COURSE, exact: true }).click();
  await page.getByRole('button', { name: `Add to cart: ${COURSE}` }).click();
  await page.getByRole('link', { name: 'Go to cart' }).click();
  await page.getByRole('button', { name: 'Pay ₹499' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/payment\?order=/);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Payment successful!')).toBeVisible();
});

for (const width of [1280, 360]) {
  test(`at ${width} px the admin home draws the platform's trends and shows them as tables`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    const errors = consoleErrors(page);
    await login(page, DEMO_EMAIL.admin);
    await expect(page).toHaveURL(/\/admin\/home$/);
    // the number cards stay
    await expect(page.getByRole('region', { name: 'Totals' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Trends', level: 2 })).toBeVisible();
    await expectChart(page, 'Enrolments per month', /^Enrolments per month, .+ to .+: \d+ learners? enrolled/);
    await expectChart(page, 'Revenue per month', /^Revenue per month, .+: ₹[\d,.]+ in total/);
    expect(await clippedInMain(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-charts-admin-${width}`);

    const revenue = await openTable(page, 'Revenue per month');
    const month = revenue.getByRole('row', { name: new RegExp(THIS_MONTH) });
    await expect(month.getByRole('cell')).toHaveText(/^₹[\d,]+/);
    await expect(revenue.getByRole('row')).toHaveCount(13);
    const enrolments = await openTable(page, 'Enrolments per month');
    await expect(enrolments.getByRole('columnheader')).toHaveText(['Month', 'Live trainings', 'Courses']);
    expect(await clippedInMain(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-charts-admin-tables-${width}`);
    expect(errors).toEqual([]);
  });
}

for (const width of [1280, 360]) {
  test(`at ${width} px a provider's dashboard draws its own trends`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    const errors = consoleErrors(page);
    await login(page, DEMO_EMAIL.provider);
    await expect(page).toHaveURL(/\/learning-provider$/);
    await expect(page.getByLabel('Total Trainings')).toBeVisible();
    await expectChart(page, 'Enrolments per month', /^Enrolments per month, /);
    await expectChart(page, 'Course sales per month', /^Course sales per month, .+: ₹[\d,.]+ in total/);
    const attendance = page.getByRole('region', { name: 'Attendance', exact: true });
    const gain = page.getByRole('region', { name: 'Pre and post assessment scores', exact: true });
    // the demo's trainings: drawn when one has started (other journeys on the same server start
    // them and take their tests), otherwise said in words; the chart is the image its summary names
    await expect(
      attendance
        .getByRole('img', { name: /^Attendance of the latest / })
        .or(attendance.getByText('No training has started yet.')),
    ).toBeVisible();
    await expect(
      gain
        .getByRole('img', { name: /^Average pre- and post-assessment scores / })
        .or(gain.getByText('No assessment has been taken yet.')),
    ).toBeVisible();
    expect(await clippedInMain(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-charts-provider-${width}`);

    const sales = await openTable(page, 'Course sales per month');
    await expect(sales.getByRole('row', { name: new RegExp(THIS_MONTH) }).getByRole('cell')).toHaveText(/^₹[\d,]+/);
    expect(await clippedInMain(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-charts-provider-table-${width}`);
    expect(errors).toEqual([]);
  });
}

for (const width of [1280, 360]) {
  test(`at ${width} px the organization home draws the organization's trends under its counts`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    const errors = consoleErrors(page);
    await login(page, DEMO_EMAIL.organization);
    await expect(page).toHaveURL(/\/organization$/);
    await expect(page.getByLabel('Organization counts')).toBeVisible();
    // the demo organization's learner, enrolled when the demo was seeded (other journeys on the same
    // server may enrol more)
    await expectChart(
      page,
      'Enrolments per month',
      /^Enrolments per month, .+: [1-9]\d* learners? enrolled in live trainings/,
    );
    const sales = page.getByRole('region', { name: 'Course sales per month', exact: true });
    await expect(
      sales.getByRole('img', { name: /^Course sales per month, / }).or(sales.getByText('No course sales yet.')),
    ).toBeVisible();
    const enrolments = await openTable(page, 'Enrolments per month');
    await expect(
      enrolments
        .getByRole('row', { name: new RegExp(THIS_MONTH) })
        .getByRole('cell')
        .first(),
    ).toHaveText(/^[1-9]\d*$/);
    expect(await clippedInMain(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-charts-organization-${width}`);
    expect(errors).toEqual([]);
  });
}
