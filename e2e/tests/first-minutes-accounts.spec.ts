import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, expect, request, test } from '@playwright/test';
import { freePort } from '../../apps/server/test/free-port';
import { apiLogin, signedInContext } from '../support/conference';
import { DEMO_PASSWORD, login, screenshot } from '../support/session';

/**
 * Issue 41, items 9–12 (accounts, dashboards, the trainer's profile, receipts) for someone
 * without a guide, in Chromium; items 1–8 are in first-minutes.spec.ts.
 */

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 860 };
const SIZES = [
  ['1280', LAPTOP],
  ['360', PHONE],
] as const;

/** A page signed in as `email` (through the API, as the login page would) at this size. */
async function signedIn(browser: Browser, email: string, viewport: { width: number; height: number } = LAPTOP) {
  const api = await browser.newContext();
  const { user, call } = await apiLogin(api.request, email);
  const context = await signedInContext(browser, user, undefined, viewport);
  context.on('close', () => void api.close());
  return { page: await context.newPage(), call, user, context };
}

for (const [size, viewport] of SIZES) {
  test(`item 10: signed in, Logout Previous Account signs in another account; a wrong password reads at the top (${size} px)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await login(page, 'user@demo.test');
    await expect(page).toHaveURL(/\/users$/);
    const oldToken = await page.evaluate(() => localStorage.getItem('token'));

    // /login while signed in: the notice says what ticking does, and pressing Login goes through
    await page.goto('/login');
    await expect(page.getByTestId('already-notice')).toContainText('user@demo.test is signed out first');
    await expect(page.getByRole('checkbox', { name: 'Logout Previous Account' })).toBeChecked();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('org@demo.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await screenshot(page, `first-minutes-login-signed-in-${size}`);
    const logout = page.waitForResponse((r) => r.url().endsWith('/api/logout'));
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    expect((await logout).status()).toBe(200);
    await expect(page).toHaveURL(/\/organization$/);
    expect(await page.evaluate(() => localStorage.getItem('email'))).toBe('org@demo.test');
    // the account signed in before is signed out on the server too: its token is no live session
    const old = await page.request.post('/api/current-token', {
      data: { email: 'user@demo.test' },
      headers: { Authorization: `Bearer ${oldToken}` },
    });
    expect(await old.json()).toBe('');

    // unticked, the spec's refusal stands and nothing is sent
    await page.goto('/login');
    await page.getByRole('checkbox', { name: 'Logout Previous Account' }).uncheck();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('user@demo.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Your are already loged in');
    expect(await page.evaluate(() => localStorage.getItem('email'))).toBe('org@demo.test');
    await context.close();

    // a wrong password: the message at the top of the form, above Email, and Email not marked wrong
    const anonymous = await browser.newContext({ viewport });
    const fresh = await anonymous.newPage();
    await fresh.goto('/login');
    await fresh.getByRole('textbox', { name: 'Email', exact: true }).fill('user@demo.test');
    await fresh.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await fresh.getByRole('button', { name: 'Login', exact: true }).click();
    const alert = fresh.getByRole('alert').filter({ hasText: 'These credentials do not match our records.' });
    await expect(alert).toBeVisible();
    const email = fresh.getByRole('textbox', { name: 'Email', exact: true });
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    expect((await alert.boundingBox())!.y).toBeLessThan((await email.boundingBox())!.y);
    await screenshot(fresh, `first-minutes-login-wrong-password-${size}`);
    await anonymous.close();
  });
}

for (const [size, viewport] of SIZES) {
  test(`item 11: the organization's Users tile counts the people Latest users lists; every tile says what it counts (${size} px)`, async ({
    browser,
  }) => {
    const org = await signedIn(browser, 'org@demo.test', viewport);
    await org.page.goto('/organization');
    const counts = org.page.getByLabel('Organization counts');
    await expect(counts).toBeVisible();
    const tile = counts.locator('> div').filter({ has: org.page.getByText('Users', { exact: true }) });
    const users = Number(await tile.locator('p').nth(1).innerText());
    // a table at 1280 px, a card per person on a phone
    const rows =
      viewport.width < 576
        ? org.page.getByRole('list', { name: 'Latest users' }).getByRole('listitem')
        : org.page.getByRole('table', { name: 'Latest users' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    // the demo organization has fewer than 10 people: the list is all of them, as many as the tile says
    expect(await rows.count(), 'rows of Latest users').toBe(users);
    await expect(org.page.getByTestId('latest-users-hint')).toHaveText(
      `The newest ${users} of the ${users} users counted above.`,
    );
    await expect(counts.getByTestId('stat-hint')).toHaveCount(6);
    for (const hint of await counts.getByTestId('stat-hint').all()) await expect(hint).toBeVisible();
    expect(await org.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await screenshot(org.page, `first-minutes-organization-home-${size}`);
    await org.context.close();

    const admin = await signedIn(browser, 'admin@demo.test', viewport);
    await admin.page.goto('/admin/home');
    const totals = admin.page.getByRole('region', { name: 'Totals' });
    await expect(totals.getByText('Learning providers', { exact: true })).toBeVisible();
    const tiles = totals.locator('.mantine-Card-root');
    const n = await tiles.count();
    expect(n).toBeGreaterThan(3);
    // every total, the spec's labels kept, has its line of explanation
    await expect(totals.getByTestId('stat-hint')).toHaveCount(n);
    await expect(totals.getByText('Approved learning provider accounts.')).toBeVisible();
    await expect(totals.getByText('Learners who registered on their own.')).toBeVisible();
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await screenshot(admin.page, `first-minutes-admin-home-${size}`);
    await admin.context.close();
  });
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVR4nGMwTjsDRwzEcQA64hZRB8tCjwAAAABJRU5ErkJggg==',
  'base64',
);

for (const [size, viewport] of SIZES) {
  test(`item 9: the trainer's pictures are file pickers, and one submit shows every field's error (${size} px)`, async ({
    browser,
  }) => {
    const { page, context } = await signedIn(browser, 'trainer@demo.test', viewport);
    await page.goto('/trainer/update-profile');
    // a picker reads as one: an icon, "Choose a picture…", the accepted types, a preview place
    for (const label of ['Profile Picture', 'Address Proof']) {
      const picker = page.getByRole('button', { name: label });
      await expect(picker).toBeVisible();
      await expect(picker).toHaveText(/Choose a picture…|\.(png|jpe?g)$/);
      const box = (await picker.boundingBox())!;
      expect(box.x + box.width, `${label} inside ${size} px`).toBeLessThanOrEqual(viewport.width);
    }
    await expect(page.getByText('A .png, .jpg or .jpeg picture, up to 5 MB.')).toHaveCount(2);
    const files = page.locator('input[type="file"]');
    await files.nth(0).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('img', { name: 'Chosen profile picture' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Profile Picture' })).toContainText('me.png');
    await screenshot(page, `first-minutes-trainer-pictures-${size}`);
    // a wrong picture, a PDF as address proof, a mistyped PAN and Aadhar: all answered by one submit
    await files.nth(0).setInputFiles({ name: 'me.gif', mimeType: 'image/gif', buffer: PNG });
    await files
      .nth(1)
      .setInputFiles({ name: 'proof.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await page.getByRole('textbox', { name: 'PAN No' }).fill('ABCD1234F');
    await page.getByRole('textbox', { name: 'Aadhar No' }).fill('1234');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/update-trainer-profile'));
    await page.getByRole('button', { name: 'Update' }).click();
    const res = await answer;
    expect(res.status()).toBe(422);
    expect(Object.keys(await res.json()).sort()).toEqual(['aadhar_no', 'address_proof', 'pan_no', 'profile_pic']);
    await expect(page.getByText('The pan no format is invalid.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Aadhar No' })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('The file must be an image of type: png, jpg, jpeg.')).toHaveCount(2);
    // a PDF gets no broken preview
    await expect(page.getByText('No preview', { exact: true })).toBeVisible();
    await screenshot(page, `first-minutes-trainer-profile-errors-${size}`);
    await context.close();
  });
}

test('item 12: a receipt downloaded in the browser leaves no warning in the server log', async ({ browser }) => {
  test.setTimeout(180_000);
  // a server of its own whose log this test reads (the journeys' server writes to no one here)
  const serverDir = path.resolve(import.meta.dirname, '../../apps/server');
  const work = mkdtempSync(path.join(tmpdir(), 'trainlab-receipt-'));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const args = process.env.E2E_FROM_SOURCE
    ? ['--import', 'tsx', 'src/main.ts']
    : [path.join(process.env.E2E_SERVER_DIST ?? path.join(serverDir, 'dist'), 'main.js')];
  const server = spawn(process.execPath, args, {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: path.join(work, 'data'),
      MIGRATIONS_DIR: path.join(serverDir, 'drizzle'),
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      LAB_IMAGE_AUTOBUILD: 'false',
      WEB_DIST: process.env.E2E_WEB_DIST ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stdout?.on('data', (c: Buffer) => {
    log += c.toString();
  });
  server.stderr?.on('data', (c: Buffer) => {
    log += c.toString();
  });
  const api = await request.newContext({ baseURL: base });
  try {
    await expect
      .poll(
        () =>
          api.get('/api/health').then(
            (r) => r.ok(),
            () => false,
          ),
        { timeout: 120_000, message: log },
      )
      .toBe(true);
    const { user, call } = await apiLogin(api, 'user@demo.test', DEMO_PASSWORD, base);
    const courses = await call<{ list: { id: number; amount_paise: number }[] }>('search-by-courses', {});
    const course = courses.list.find((c) => c.amount_paise > 0)!;
    await call('add-cart', { type: 'is_course', type_id: course.id });
    const order = await call<{ order_id: string }>('checkout-cart', {});
    const paid = await call<Record<string, string>>('test-gateway-pay', { order_id: order.order_id, outcome: 'pay' });
    await call('verify-payment', paid);
    const before = log.length;

    const context = await signedInContext(browser, user, base);
    const page = await context.newPage();
    await page.goto('/cart');
    const payments = page.getByRole('region', { name: 'Your payments' });
    const download = page.waitForEvent('download');
    await payments
      .getByRole('button', { name: /^Download receipt TL/ })
      .first()
      .click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^receipt-TL\w+\.pdf$/);
    await context.close();
    // the log is JSON lines at LOG_LEVEL warn: anything written during the download is a warning or worse
    await new Promise((r) => setTimeout(r, 500));
    const after = log.slice(before);
    expect(after).not.toContain('Reply was already sent');
    expect(after.split('\n').filter((l) => /"level":(4|5|6)0/.test(l))).toEqual([]);
  } finally {
    await api.dispose();
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  }
});
