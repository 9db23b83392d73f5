import { expect, type Page, test } from '@playwright/test';
import { ROLE_HOME } from '@trainlab/contract';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import { apiLogin, createTraining, freshLearner, joinRoom, signedInContext, tag } from '../support/conference';
import { watchPolicy } from '../support/csp';
import { routesByRole, VISITORS } from '../support/routes-by-role';
import { DEMO_EMAIL, screenshot } from '../support/session';

// Every role signs in as its demo account (one session per account): one after another.
test.describe.configure({ mode: 'serial' });
// the conference asks for a camera and a microphone
test.use({ launchOptions: CHROMIUM_WITH_FAKE_MEDIA });

/** Opens a path and lets its lazily loaded screen and its first calls settle. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle', { timeout: 2_500 }).catch(() => undefined);
  // a route's screen renders its heading, or its loading/error state, inside the shell
  await expect(page.locator('#root')).not.toBeEmpty();
}

const ROUTES = routesByRole();

test('the route list covers the whole contract table', () => {
  for (const visitor of VISITORS) expect(ROUTES[visitor].length).toBeGreaterThan(10);
  expect(ROUTES.admin).toContain('/admin/home');
  expect(ROUTES.anonymous).not.toContain('/admin/home');
  expect(ROUTES.trainer).toContain('/trainer-take-calls');
});

// Every route of every role is opened under the policy by the every-route walk
// (every-route-a11y.spec.ts), which fails on any violation it sees.

test('the audit trail screen (issue 20) loads without a policy violation', async ({ browser, request }) => {
  const context = await signedInContext(browser, (await apiLogin(request, DEMO_EMAIL.admin)).user);
  const violations = await watchPolicy(context);
  const page = await context.newPage();
  // with the rows the seeding and the sign-ins left
  await visit(page, '/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit Trail', level: 1 })).toBeVisible();
  await screenshot(page, 'audit-log-admin');
  expect(violations).toEqual([]);
  await context.close();
});

test('the conference with its whiteboard, a PDF certificate and the mailbox: no policy violation', async ({
  browser,
  request,
}) => {
  test.setTimeout(5 * 60_000);
  const provider = await apiLogin(request, DEMO_EMAIL.provider);
  const training = await createTraining(provider.call, `Policy Check ${tag()}`);
  const learner = await freshLearner(request, provider.call, training.slug, 'Pia');

  // the provider hosts the meeting and draws on the whiteboard
  const hostContext = await signedInContext(browser, provider.user);
  const violations = await watchPolicy(hostContext);
  const host = await hostContext.newPage();
  await host.goto(`/conference/${training.slug}`);
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await host.getByRole('button', { name: 'Join meeting' }).click();
  await expect(host.getByRole('button', { name: "Mute everyone's audio" })).toBeVisible();
  const learnerContext = await signedInContext(browser, learner);
  violations.push(...(await watchPolicy(learnerContext)));
  const guest = await learnerContext.newPage();
  await joinRoom(guest, training.slug);
  await host.getByRole('button', { name: 'Whiteboard' }).click();
  const board = host.getByRole('region', { name: 'Whiteboard', exact: true });
  await expect(board.locator('.excalidraw canvas').first()).toBeVisible({ timeout: 20_000 });
  await board.getByTitle(/^Rectangle/).click();
  const box = await board.boundingBox();
  if (!box) throw new Error('no whiteboard');
  const [x, y] = [box.x + box.width * 0.3, box.y + box.height * 0.35];
  await host.mouse.move(x, y);
  await host.mouse.down();
  for (let i = 1; i <= 10; i++) await host.mouse.move(x + i * 20, y + i * 10);
  await host.mouse.up();
  await expect(board).toHaveAttribute('data-elements', '1');
  // text on the board loads Excalidraw's fonts from this server
  await board.getByTitle(/^Text/).click();
  await host.mouse.click(x, y + 200);
  await host.keyboard.type('Policy');
  await host.keyboard.press('Escape');
  await expect(board).toHaveAttribute('data-elements', '2');
  await screenshot(host, 'csp-whiteboard');

  // the learner sees the board
  await expect(guest.getByRole('region', { name: 'Whiteboard (view only)', exact: true })).toHaveAttribute(
    'data-elements',
    '2',
  );

  // the learner's certificate, downloaded as a PDF
  const enrolments = await provider.call<{ list: { id: number; email: string }[] }>('lp/get-training-users', {
    slug: training.slug,
  });
  const enrolment = enrolments.list.find((u) => u.email === learner.email);
  await provider.call('lpu/download-certificate-access', { id: enrolment!.id });
  await visit(guest, `/certificate/${training.slug}`);
  const download = guest.waitForEvent('download');
  await guest.getByRole('button', { name: 'Download PDF' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
  await visit(guest, ROLE_HOME.provider_user);

  // the dev mailbox (the embedded outbox) with the learner's set-password mail
  await visit(guest, '/dev/mailbox');
  await expect(guest.getByText(learner.email).first()).toBeVisible();
  await screenshot(guest, 'csp-mailbox');

  expect(violations).toEqual([]);
  await hostContext.close();
  await learnerContext.close();
});

test('a violation is caught: an inline script the policy does not hash is reported', async ({ browser }) => {
  const context = await browser.newContext();
  const violations = await watchPolicy(context);
  const page = await context.newPage();
  await visit(page, '/');
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = 1';
    document.body.appendChild(s);
  });
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  await context.close();
});
