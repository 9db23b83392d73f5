import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { TERMINAL_OPTIONS } from '../../apps/web/src/features/labs/terminal-options';
import { apiLogin, signedInContext, tag } from '../support/conference';
import { screenshot } from '../support/session';
import { pickTrainingDates } from '../support/trainings';

/**
 * Issue 41: the first minutes of a lab, a bill and a test for someone without a guide, in Chromium.
 */

const web = createRequire(path.join(import.meta.dirname, '../../apps/web/package.json'));

/** xterm.js with the lab terminal's own options, drawn by this Chromium with this machine's fonts. */
async function drawTerminal(page: Page, text: string) {
  await page.setContent('<div id="t" style="width:640px;height:200px;background:#000"></div>');
  await page.addStyleTag({ path: web.resolve('@xterm/xterm/css/xterm.css') });
  await page.addScriptTag({ path: web.resolve('@xterm/xterm/lib/xterm.js') });
  await page.evaluate(
    ([options, line]) =>
      new Promise<void>((done) => {
        const { Terminal } = globalThis as unknown as {
          Terminal: new (o: unknown) => { open(e: Element): void; write(d: string, cb: () => void): void };
        };
        const term = new Terminal({ ...(options as object), cursorBlink: false, cursorStyle: 'bar' });
        term.open(document.getElementById('t')!);
        term.write(line as string, done);
      }),
    [TERMINAL_OPTIONS, text] as const,
  );
  await page.evaluate(() => document.fonts.ready);
}

/** Lit pixels (any channel above 96) in a screenshot of the terminal's first row. */
async function litPixelsOfFirstRow(page: Page): Promise<number> {
  const row = page.locator('.xterm-rows > div').first();
  const box = (await row.boundingBox())!;
  const png = await page.screenshot({ clip: { x: box.x, y: box.y, width: 120, height: box.height } });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, img.width, img.height);
    let lit = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! > 96 || data[i + 1]! > 96 || data[i + 2]! > 96) lit++;
    return lit;
  }, png.toString('base64'));
}

test('item 3: an underscore in the lab terminal has pixels (snake_case_word, x86_64)', async ({ page }) => {
  // a row holding only an underscore: with the last pixel row cut, nothing of it is drawn
  await drawTerminal(page, '_');
  expect(await litPixelsOfFirstRow(page), 'pixels of "_"').toBeGreaterThan(3);
  await drawTerminal(page, 'echo snake_case_word\r\nx86_64 GNU/Linux\r\n');
  await page
    .locator('#t')
    .screenshot({ path: `${import.meta.dirname}/../.artifacts/screens/lab-terminal-underscores.png` });
});

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 860 };

/** A page signed in as `email` (through the API, as the login page would) at this size. */
async function signedIn(browser: Browser, email: string, viewport = LAPTOP) {
  const api = await browser.newContext();
  const { user, call } = await apiLogin(api.request, email);
  const context = await signedInContext(browser, user, undefined, viewport);
  context.on('close', () => void api.close());
  return { page: await context.newPage(), call, user, context };
}

/** ₹ text → paise */
const paise = (text: string) => Math.round(Number(text.replace(/[₹,\s]/g, '')) * 100);

/** Every usage row of a VM Details page recomputed from the price per hour it shows. */
async function checkVmDetails(page: Page) {
  const priceText = await page.getByText(/^₹[\d.,]+ per hour$/).innerText();
  const perHour = Number(priceText.replace(/[₹,]|per hour/g, '').trim());
  await expect(page.getByTestId('vm-price-rule')).toContainText('per month');
  const table = page.getByRole('table', { name: 'Usage' });
  const rows = table.locator('tbody tr');
  let sum = 0;
  for (const row of await rows.all()) {
    const cells = await row.locator('td').allInnerTexts();
    const minutes = Number(cells.at(-2));
    const cost = paise(cells.at(-1)!);
    // price per hour × minutes ÷ 60, to the paisa
    expect(cost, `${minutes} min at ₹${perHour}/h`).toBe(Math.round((perHour * 100 * minutes) / 60 + 1e-9));
    sum += cost;
  }
  const total = await page
    .getByText('Total Cost', { exact: true })
    .locator('xpath=following-sibling::*[1]')
    .innerText();
  expect(paise(total)).toBe(sum);
  return perHour;
}

test('item 1: every amount on VM Details and Cloud Payment is its price per hour × minutes (1280 and 360 px)', async ({
  browser,
}) => {
  const { page, context } = await signedIn(browser, 'provider@demo.test');
  await page.goto('/cloud-payment');
  await expect(page.getByRole('heading', { name: 'Pay VM Billing' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const bill = page.getByRole('table', { name: 'Unpaid VM usage' });
  // each run on the bill is recomputed from its VM's price, as its VM Details shows it
  const runs: { href: string; minutes: number; cost: number }[] = [];
  for (const row of await bill
    .locator('tbody tr')
    .filter({ has: page.getByRole('link') })
    .all()) {
    const cells = await row.locator('td').allInnerTexts();
    const minutes = Number(/\((\d+) min\)/.exec(cells.join(' '))![1]);
    runs.push({ href: (await row.getByRole('link').getAttribute('href'))!, minutes, cost: paise(cells.at(-1)!) });
  }
  const total = await page.getByTestId('vm-total').innerText();
  await screenshot(page, 'first-minutes-cloud-payment-1280');
  const prices = new Map<string, number>();
  let sum = 0;
  for (const run of runs) {
    if (!prices.has(run.href)) {
      await page.goto(run.href);
      prices.set(run.href, await checkVmDetails(page));
    }
    expect(run.cost, `${run.minutes} min`).toBe(Math.round((prices.get(run.href)! * 100 * run.minutes) / 60 + 1e-9));
    sum += run.cost;
  }
  expect(paise(total)).toBe(sum);
  // the demo lab's VM Details, whether or not its runs are paid yet
  await page.goto('/vm-list');
  await page.getByRole('link', { name: 'Details of Demo Ubuntu Lab' }).click();
  expect(await checkVmDetails(page)).toBe(0.0547);
  const details = page.url();
  await screenshot(page, 'first-minutes-vm-details-1280');
  await context.close();

  // the same amounts on a phone, nothing wider than the screen
  const phone = await signedIn(browser, 'provider@demo.test', PHONE);
  await phone.page.goto('/cloud-payment');
  await expect(phone.page.getByTestId('vm-total')).toHaveText(total);
  await screenshot(phone.page, 'first-minutes-cloud-payment-360');
  await phone.page.goto(details);
  await expect(phone.page.getByText('₹0.0547 per hour', { exact: true })).toBeVisible();
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(phone.page, 'first-minutes-vm-details-360');
  await phone.context.close();
});

test('items 4 and 5: a provider with a lab reaches Create VM directly; states, not verbs; the logins banner fits 360 px', async ({
  browser,
}) => {
  const { page, context } = await signedIn(browser, 'provider@demo.test');
  await page.goto('/create-vm');
  await expect(page.getByTestId('vm-price')).toContainText('per hour while it runs');
  await expect(page).toHaveURL(/\/create-vm$/);
  await expect(page.getByTestId('vm-price-parts')).toContainText('per month');
  await screenshot(page, 'first-minutes-create-vm-1280');
  await page.goto('/vm-list');
  const demo = page.getByRole('row').filter({ hasText: 'Demo Ubuntu Lab' });
  await expect(demo.getByText(/^(Running|Stopped|Not started)$/)).toBeVisible();
  await expect(page.getByText('Not started', { exact: true }).first()).toBeVisible();
  await context.close();

  // the shown-once logins on a phone: all of it inside the screen
  const phone = await signedIn(browser, 'provider@demo.test', PHONE);
  await phone.page.goto('/vm-list');
  await expect(phone.page.getByRole('heading', { level: 1 })).toBeVisible();
  await phone.page.evaluate(() => {
    const created = [
      { name: 'ubuntu 2 GB', vm_name: 'tl-00000000aa', username: 'tllab_00000000aa', password: 'Secret-Once-1@x' },
    ];
    window.history.replaceState({ ...window.history.state, usr: { created } }, '');
  });
  await phone.page.reload();
  const banner = phone.page.getByRole('alert').filter({ hasText: 'the passwords are shown only once' });
  await expect(banner).toBeVisible();
  const password = banner.getByText('Secret-Once-1@x');
  await password.scrollIntoViewIfNeeded();
  const box = (await password.boundingBox())!;
  expect(box.x + box.width, 'the password inside 360 px').toBeLessThanOrEqual(PHONE.width);
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(phone.page, 'first-minutes-logins-360');
  await phone.context.close();
});

test('item 6: Pre Assessment leads to its builder; Add Training User names its training; whole headers', async ({
  browser,
}) => {
  const { page, context, call } = await signedIn(browser, 'provider@demo.test');
  const name = `Issue 41 training ${tag()}`;
  await page.goto('/create-training');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await pickTrainingDates(page);
  await page.getByRole('textbox', { name: 'Description' }).fill('Checks the way to the assessment builder.');
  await page.getByRole('checkbox', { name: 'Pre Assessment' }).check();
  await page.getByRole('tab', { name: 'Cost' }).click();
  await expect(page.getByTestId('cost-total')).toHaveText(/^₹[\d,]+\.\d\d$/);
  await page.getByRole('tab', { name: 'Create Training' }).click();
  await page.getByRole('button', { name: 'Create Training' }).last().click();
  await expect(page).toHaveURL(/\/all-trainings$/);
  await expect(page.getByText(`Next: the Pre Assessment of ${name}`)).toBeVisible();
  // whole headers at 1280 px: none cut to 'Tot…'
  for (const header of ['Total Day', 'Total Participants']) {
    const th = page.locator('th', { hasText: header });
    await expect(th).toBeVisible();
    expect(
      await th.evaluate((e) => [...e.querySelectorAll('*')].every((c) => c.scrollWidth <= c.clientWidth + 1)),
    ).toBe(true);
  }
  // the row's actions stay in view beside them
  const more = page.getByRole('button', { name: `More actions for ${name}` });
  await expect(more).toBeVisible();
  expect((await more.boundingBox())!.x + 28).toBeLessThanOrEqual(LAPTOP.width);
  await screenshot(page, 'first-minutes-all-trainings-1280');
  await page.getByRole('link', { name: 'Build the assessment' }).click();
  await expect(page).toHaveURL(/\/assessment\/add\//);
  const slug = page.url().split('/').pop()!;
  await page.goto(`/add-training-user/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
  await call('delete-trainings', { slug });
  await context.close();
});

test('item 8: the trainer’s Confirm is in view at 1280 px and Available needs no dates', async ({ browser }) => {
  const api = await browser.newContext();
  const provider = await apiLogin(api.request, 'provider@demo.test');
  const trainer = await signedIn(browser, 'trainer@demo.test');
  const trainings = await provider.call<{ list: { slug: string }[] }>('all-trainings', {});
  const title = `Intro call ${tag()}`;
  const at = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
  await provider.call('create-take-call', {
    title,
    start: at(24),
    end: at(25),
    slug: trainings.list[0]!.slug,
    trainer_ids: [trainer.user._id],
  });
  const { page } = trainer;
  await page.goto('/trainer-take-calls');
  const confirm = page.getByRole('button', { name: `Confirm ${title}` });
  await expect(confirm).toBeVisible();
  const box = (await confirm.boundingBox())!;
  expect(box.x + box.width, 'Confirm inside the 1280 px window').toBeLessThanOrEqual(LAPTOP.width);
  await screenshot(page, 'first-minutes-trainer-take-calls-1280');
  await confirm.click();
  const modal = page.getByRole('dialog', { name: 'Confirm Take Call' });
  await modal.getByRole('textbox', { name: /Select Status/ }).click();
  await page.getByRole('option', { name: 'Available' }).click();
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Available');
  await trainer.context.close();
  await api.close();
});

test('item 2: money reads in one currency per kind: trainer rates in $ with why, the Cost tab in ₹', async ({
  browser,
}) => {
  const { page, context } = await signedIn(browser, 'trainer@demo.test');
  await page.goto('/trainer/skill-list');
  const rate = page.locator('tbody tr').first().locator('td').nth(4);
  await expect(rate).toHaveText(/^\$[\d,]+\.\d\d$/);
  await page.goto('/trainer/skill-add');
  await expect(page.getByText(/quote their rates in US dollars per hour; what you pay on this platform/)).toBeVisible();
  await screenshot(page, 'first-minutes-trainer-rate-1280');
  await context.close();
});
