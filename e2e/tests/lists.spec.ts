import { expect, type Page, test } from '@playwright/test';
import { login, screenshot } from '../support/session';
import { trTag } from '../support/trainings';

const day = 24 * 3600_000;

/** Elements that stick out of the viewport on the right (what makes a page scroll sideways). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > width + 1 && e.getClientRects().length > 0)
      .filter((e) => !e.closest('[data-overflow-ok]'))
      .slice(0, 5)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${Array.from(e.classList).join('.')} (${Math.round(e.getBoundingClientRect().right)}px)`,
      );
  });

/** The bearer token of the signed-in page, to seed data through the API as that account. */
const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token') ?? '');

test('a paged list: page 2, search, sort, and a reload or a shared link keep the state', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, 'provider@demo.test');
  await expect(page).toHaveURL(/\/learning-provider$/);
  const tag = trTag();
  const token = await tokenOf(page);
  for (let i = 0; i < 25; i++) {
    const res = await page.request.post('/api/create-training', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: `Paging ${tag} ${String(i).padStart(2, '0')}`,
        start_date: new Date(Date.now() + (i + 1) * day).toISOString(),
        end_date: new Date(Date.now() + 40 * day).toISOString(),
        total_training_day: 1,
        number_of_participants: 5,
        description: 'Seeded by the list journey.',
        requirements: [],
      },
    });
    expect(res.ok()).toBe(true);
  }

  await page.goto('/all-trainings');
  const table = page.getByRole('table', { name: 'Upcoming trainings' });
  await page.getByRole('textbox', { name: 'Search' }).fill(tag);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await expect(page.getByText('1–20 of 25')).toBeVisible();
  await expect(table.getByRole('cell', { name: `Paging ${tag} 00`, exact: true })).toBeVisible();

  // page 2 holds the last five
  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText('21–25 of 25')).toBeVisible();
  await expect(table.getByRole('cell', { name: `Paging ${tag} 24`, exact: true })).toBeVisible();

  // sorting by name, descending, starts again at page 1
  await table.getByRole('button', { name: /^Name/ }).click();
  await expect(page).toHaveURL(/sort=name/);
  await table.getByRole('button', { name: /^Name/ }).click();
  await expect(page).toHaveURL(/sort=-name/);
  await expect(page).not.toHaveURL(/page=2/);
  await expect(table.locator('tbody tr').first()).toContainText(`Paging ${tag} 24`);

  // a reload (or the same link opened elsewhere) shows the same rows
  const url = page.url();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue(tag);
  await expect(table.locator('tbody tr').first()).toContainText(`Paging ${tag} 24`);
  await page.goto('/learning-provider');
  await page.goto(url);
  await expect(table.locator('tbody tr').first()).toContainText(`Paging ${tag} 24`);

  // the back button walks the list states back
  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(page.getByText('21–25 of 25')).toBeVisible();
  await page.goBack();
  await expect(page.getByText('1–20 of 25')).toBeVisible();

  // the table fits 1280 px without scrolling sideways
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
  await screenshot(page, 'lists-all-trainings-1280');

  // on a phone the rows are cards and nothing scrolls sideways
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(page.getByRole('list', { name: 'Upcoming trainings' })).toBeVisible();
  // measured once the layout has settled at the new width (a busy machine repaints late)
  await expect.poll(() => overflowing(page)).toEqual([]);
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
  await screenshot(page, 'lists-all-trainings-360');
});

test('the users list pages and searches on the server as the admin', async ({ page }) => {
  await login(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/admin\/home$/);
  await page.goto('/users-list?search=demo.test&sort=email');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.locator('tbody tr').first()).toContainText('@demo.test');
  await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue('demo.test');
  await page.getByRole('textbox', { name: 'Search' }).fill('orguser@demo');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr').first()).toContainText('orguser@demo.test');
});

/** Posts a call as the signed-in page's account. */
async function callAs(page: Page, path: string, data: object) {
  const res = await page.request.post(`/api/${path}`, {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data,
  });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

const two = (i: number) => String(i).padStart(2, '0');

/** A question of the bank for the list journeys, named by its category and number. */
const question = (category: string, i: number) => ({
  language_identified: 'English',
  question_category: category,
  question_type: 'MCQ',
  question: `${category} question ${two(i)}?`,
  option1: 'One',
  option2: 'Two',
  option3: 'Three',
  option4: 'Four',
  correct_option: 1,
  level: 'Beginner',
});

/**
 * On a list of 25 rows named with `tag` (and others): the search finds the 25 (20 on page 1), page 2
 * shows 21–25, sorting by `column` descending puts `lastFirst` first and returns to page 1, and a
 * reload keeps the search, the sort and the rows.
 */
async function searchPageSortReload(
  page: Page,
  o: { table: string; tag: string; column: string; sort: string; lastFirst: string },
) {
  const table = page.getByRole('table', { name: o.table });
  await page.getByRole('textbox', { name: 'Search' }).fill(o.tag);
  await expect(page).toHaveURL(new RegExp(`search=${o.tag}`));
  await expect(page.getByText('1–20 of 25')).toBeVisible();

  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText('21–25 of 25')).toBeVisible();

  const header = table.getByRole('button', { name: new RegExp(`^${o.column}`) });
  await header.click();
  await expect(page).toHaveURL(new RegExp(`sort=${o.sort}`));
  await header.click();
  await expect(page).toHaveURL(new RegExp(`sort=-${o.sort}`));
  await expect(page).not.toHaveURL(/page=2/);
  await expect(table.locator('tbody tr').first()).toContainText(o.lastFirst);

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue(o.tag);
  await expect(page.getByText('1–20 of 25')).toBeVisible();
  await expect(table.locator('tbody tr').first()).toContainText(o.lastFirst);
}

/** One list per domain: who opens it, how 25 rows named with a tag are made, and how it sorts. */
const LISTS: {
  name: string;
  account: string;
  home: RegExp;
  seed: (tag: string, i: number) => [string, object];
  route: string;
  table: string;
  column: string;
  sort: string;
  lastFirst: (tag: string) => string;
}[] = [
  {
    name: 'the trainers list (admin)',
    account: 'admin@demo.test',
    home: /\/admin\/home$/,
    seed: (tag, i) => [
      'trainer-register',
      {
        first_name: `Tr${two(i)}`,
        last_name: `Paging${tag}`,
        email: `trainer-${tag}-${i}@e2e.test`,
        mobile_no: `9${String(Date.now() + i).slice(-9)}`,
      },
    ],
    route: '/trainer/list',
    table: 'Trainers',
    column: 'First Name',
    sort: 'first_name',
    lastFirst: () => 'Tr24',
  },
  {
    name: 'the courses list (recorded courses)',
    account: 'provider@demo.test',
    home: /\/learning-provider$/,
    seed: (tag, i) => [
      'create-course',
      { name: `Paging ${tag} course ${two(i)}`, amount: 100 + i, description: 'Seeded by the list journey.' },
    ],
    route: '/all-courses',
    table: 'All courses',
    column: 'Course Name',
    sort: 'name',
    lastFirst: (tag) => `Paging ${tag} course 24`,
  },
  {
    name: 'the question bank (assessments)',
    account: 'provider@demo.test',
    home: /\/learning-provider$/,
    seed: (tag, i) => ['add-question', question(`Paging ${tag}`, i)],
    route: '/question-bank/show',
    table: 'Question bank',
    column: 'Question',
    sort: 'question',
    lastFirst: (tag) => `Paging ${tag} question 24?`,
  },
];

for (const list of LISTS) {
  test(`${list.name} pages, searches and sorts on the server and keeps it in the link`, async ({ page }) => {
    await login(page, list.account);
    await expect(page).toHaveURL(list.home);
    const tag = trTag();
    for (let i = 0; i < 25; i++) await callAs(page, ...list.seed(tag, i));
    await page.goto(list.route);
    await searchPageSortReload(page, { ...list, tag, lastFirst: list.lastFirst(tag) });
    await screenshot(page, `lists-${list.route.replace(/\W+/g, '-').replace(/^-|-$/g, '')}`);
  });
}

test('the audit trail pages, searches and sorts on the server and keeps it in the link', async ({
  page: provider,
  browser,
}) => {
  // every question added is an audited call: at least 21 rows to page through
  await login(provider, 'provider@demo.test');
  await expect(provider).toHaveURL(/\/learning-provider$/);
  const tag = trTag();
  for (let i = 0; i < 21; i++) {
    await callAs(provider, 'add-question', question(`Audit ${tag}`, i));
  }
  const page = await (await browser.newContext()).newPage();
  await login(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/admin\/home$/);
  await page.goto('/audit-log');
  const table = page.getByRole('table', { name: 'Audit trail' });
  const action = page.getByRole('search', { name: 'Audit filters' }).getByRole('textbox', { name: 'Action' });
  await action.fill('add-question');
  await expect(page).toHaveURL(/action=add-question/);
  // the count the server gives for the same filter (the screen shows the last page it had while the
  // filtered one loads)
  const { total } = (await callAs(page, 'get-audit-log', { action: 'add-question' })) as { total: number };
  expect(total).toBeGreaterThanOrEqual(21);
  await expect(page.getByText(`1–20 of ${total}`, { exact: true })).toBeVisible();
  await expect(table.locator('tbody tr').first()).toContainText('add-question');

  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(new RegExp(`^21–${Math.min(40, total)} of ${total}$`))).toBeVisible();

  // oldest first (newest is the default), then a reload keeps the filter, the sort and the rows
  await table.getByRole('button', { name: /^When/ }).click();
  await expect(page).toHaveURL(/sort=at/);
  await expect(page).not.toHaveURL(/page=2/);
  // the first row's target ('question <id>') names it: the oldest added question, as the server says
  const oldestRow = (await callAs(page, 'get-audit-log', { action: 'add-question', sort: 'at', per_page: 1 })) as {
    list: { target_id: string }[];
  };
  const oldest = `question ${oldestRow.list[0]?.target_id}`;
  const firstTarget = table.locator('tbody tr').first().getByRole('cell').nth(5);
  await expect(firstTarget).toHaveText(oldest);
  const sorted = page.url();
  await page.reload();
  await expect(page).toHaveURL(sorted);
  await expect(action).toHaveValue('add-question');
  await expect(firstTarget).toHaveText(oldest);
  await screenshot(page, 'lists-audit-trail');
  await page.context().close();
});
