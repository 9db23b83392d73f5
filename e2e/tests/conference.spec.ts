import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import { screenshot } from '../support/session';

// Every journey here acts as provider@demo.test (one session per account): one after another.
test.describe.configure({ mode: 'serial' });

test.use({ launchOptions: CHROMIUM_WITH_FAKE_MEDIA });

declare global {
  interface Window {
    __cfConference?: {
      getStats: () => Promise<{ bytesReceived: number; peers: number }>;
      localTracks: () => { kind: string; enabled: boolean }[];
    };
  }
}

const WAITING = 'Waiting for the host to start the training, please standby !';
const ALREADY_OPEN = 'Training already open in another tab or browser please check';
const PASSWORD = 'Learner#2026';
const tag = () => randomBytes(3).toString('hex');

interface SessionUser {
  token: string;
  roles: string[];
  email: string;
  _id: number;
  first_name: string;
  last_name: string;
}
type Call = <T = Record<string, unknown>>(path: string, data: Record<string, unknown>) => Promise<T>;

async function apiLogin(request: APIRequestContext, email: string, password = 'Demo@12345') {
  const res = await request.post('/api/login', { data: { email, password, is_previous: true, is_sso: false } });
  expect(res.ok(), await res.text()).toBe(true);
  const user = ((await res.json()) as { success: SessionUser }).success;
  const call: Call = async (path, data) => {
    const r = await request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${user.token}` } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as never;
  };
  return { user, call };
}

/** A browser context signed in as `user` (the session kept in localStorage as the login page does). */
async function signedInContext(browser: Browser, user: SessionUser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript((u) => {
    if (localStorage.getItem('token') === u.token) return;
    localStorage.setItem('token', u.token);
    localStorage.setItem('roles', JSON.stringify(u.roles));
    localStorage.setItem('email', u.email);
    localStorage.setItem('id', String(u._id));
    localStorage.setItem('first_name', u.first_name);
    localStorage.setItem('last_name', u.last_name);
  }, user);
  return context;
}

/** Enrols a fresh learner, sets the password through the e-mailed link and signs in through the API. */
async function freshLearner(request: APIRequestContext, call: Call, slug: string, first: string) {
  const email = `cf-${first.toLowerCase()}-${tag()}@e2e.test`;
  await call('lp/add-training-user', { first_name: first, last_name: 'Learner', mobile_no: '9876543210', email, slug });
  let token: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.post('/api/dev/mailbox', { data: {} });
      const { list } = (await res.json()) as { list: { to: string; text: string }[] };
      token = list
        .filter((m) => m.to === email)
        .map((m) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(m.text)?.[1])
        .find(Boolean);
      return token;
    })
    .toBeTruthy();
  const reset = await request.post('/api/reset-password', {
    data: { password: PASSWORD, password_confirmation: PASSWORD, i_t: token },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
  return (await apiLogin(request, email, PASSWORD)).user;
}

async function createTraining(call: Call, name: string) {
  const start = new Date(Date.now() + 10 * 60_000);
  const end = new Date(start.getTime() + 2 * 86_400_000);
  return call<{ id: number; slug: string; link: string }>('create-training', {
    name,
    start_date: start.toISOString(),
    end_date: end.toISOString(),
    total_training_day: 2,
    number_of_participants: 20,
    description: `About ${name}`,
    requirements: [],
  });
}

async function joinRoom(page: Page, slug: string) {
  await page.goto(`/conference/${slug}`);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
}

const stats = (page: Page) =>
  page.evaluate(async () =>
    window.__cfConference ? window.__cfConference.getStats() : { bytesReceived: 0, peers: 0 },
  );
const localTracks = (page: Page) => page.evaluate(() => window.__cfConference?.localTracks() ?? []);

test('provider starts, two learners exchange media, mute, whiteboard, already open, attendance', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test');
  const name = `Conference Journey ${tag()}`;
  const training = await createTraining(call, name);
  const anna = await freshLearner(request, call, training.slug, 'Anna');
  const ben = await freshLearner(request, call, training.slug, 'Ben');

  const hostCtx = await signedInContext(browser, provider);
  const annaCtx = await signedInContext(browser, anna);
  const benCtx = await signedInContext(browser, ben);
  const host = await hostCtx.newPage();
  const a = await annaCtx.newPage();
  const b = await benCtx.newPage();

  // a learner before the host starts: the waiting dialog
  await a.goto(`/conference/${training.slug}`);
  await expect(a.getByRole('dialog').getByText(WAITING)).toBeVisible();
  await screenshot(a, 'cf-waiting');
  await a.getByRole('button', { name: 'Close' }).click();

  // the provider confirms the start
  await host.goto(`/conference/${training.slug}`);
  const confirm = host.getByRole('dialog');
  await expect(confirm.getByText('Are you sure want to start Training?')).toBeVisible();
  await screenshot(host, 'cf-confirm-start');
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(host.getByRole('button', { name: 'Join meeting' })).toBeVisible();
  await screenshot(host, 'cf-preview');
  await host.getByRole('button', { name: 'Join meeting' }).click();
  await expect(host.getByRole('button', { name: "Mute everyone's audio" })).toBeVisible();

  await joinRoom(a, training.slug);
  await joinRoom(b, training.slug);

  // each receives the others' media: bytes received grow
  for (const p of [host, a, b]) {
    await expect.poll(async () => (await stats(p)).peers, { timeout: 15_000 }).toBe(2);
    await expect.poll(async () => (await stats(p)).bytesReceived, { timeout: 20_000 }).toBeGreaterThan(0);
  }
  const before = (await stats(a)).bytesReceived;
  await expect.poll(async () => (await stats(a)).bytesReceived, { timeout: 10_000 }).toBeGreaterThan(before);
  await expect(a.getByTestId('cf-peer-tile')).toHaveCount(2);
  await screenshot(host, 'cf-room-host');

  // chat reaches everyone
  await a.getByRole('tab', { name: /Chat/ }).click();
  await a.getByRole('textbox', { name: 'Chat message' }).fill('Hello from Anna');
  await a.getByRole('button', { name: 'Send' }).click();
  await b.getByRole('tab', { name: /Chat/ }).click();
  await expect(b.getByText('Hello from Anna')).toBeVisible();

  // the moderator mutes everyone: the learners' own tracks are disabled
  await host.getByRole('button', { name: "Mute everyone's audio" }).click();
  await host.getByRole('button', { name: "Mute everyone's video" }).click();
  for (const p of [a, b]) {
    await expect
      .poll(async () => (await localTracks(p)).map((t) => `${t.kind}:${t.enabled}`).sort())
      .toEqual(['audio:false', 'video:false']);
  }
  expect((await localTracks(host)).every((t) => t.enabled)).toBe(true);
  await screenshot(a, 'cf-room-learner-muted');

  // the moderator draws; the learner sees the drawing
  await host.getByRole('button', { name: 'Whiteboard' }).click();
  const board = host.getByTestId('cf-whiteboard');
  await expect(board).toBeVisible();
  const box = await board.boundingBox();
  if (!box) throw new Error('no whiteboard');
  await host.mouse.move(box.x + 60, box.y + 60);
  await host.mouse.down();
  for (let i = 1; i <= 10; i++) await host.mouse.move(box.x + 60 + i * 25, box.y + 60 + i * 12);
  await host.mouse.up();
  await expect(a.getByTestId('cf-whiteboard')).toHaveAttribute('data-strokes', '1');
  await expect(a.getByText('The host draws here; you see it live.')).toBeVisible();
  await screenshot(host, 'cf-whiteboard-host');
  await screenshot(a, 'cf-whiteboard-learner');

  // a second tab of the same learner is refused
  const second = await annaCtx.newPage();
  await second.goto(`/conference/${training.slug}`);
  await second.getByRole('button', { name: 'Join meeting' }).click();
  await expect(second.getByRole('dialog').getByText(ALREADY_OPEN)).toBeVisible();
  await screenshot(second, 'cf-already-open');
  await second.getByRole('button', { name: 'Close' }).click();
  await second.close();

  // the saved whiteboard opens outside the meeting
  const wb = await hostCtx.newPage();
  await wb.goto(`/white-board?slug=${training.slug}`);
  await expect(wb.getByTestId('cf-whiteboard')).toHaveAttribute('data-strokes', '1');
  await screenshot(wb, 'cf-white-board-page');
  await wb.close();

  // everyone leaves: back to the site root; the attendance is recorded by the server
  for (const p of [a, b, host]) {
    await p.getByRole('button', { name: 'Leave' }).click();
    // /end-meeting → the site root, which sends a signed-in account on to its home
    await expect(p).toHaveURL(/\/(lpu-home|learning-provider)?$/);
  }
  const { list } = await call<{ list: { email: string; join: number; min: number }[] }>('lp/get-training-users', {
    slug: training.slug,
  });
  for (const learner of [anna, ben]) expect(list.find((r) => r.email === learner.email)?.join).toBe(1);
  await Promise.all([hostCtx.close(), annaCtx.close(), benCtx.close()]);
});

test('a guest joins a public training by its link; the moderator ends the meeting for all', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test');
  const training = await createTraining(call, `Public Conference ${tag()}`);
  await call('lp-public-training', { id: training.id });

  const guestCtx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const guest = await guestCtx.newPage();
  await guest.goto(`/public/conference/${training.link}`);
  await expect(guest.getByRole('dialog').getByText(WAITING)).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Try Again' })).toBeVisible();

  const hostCtx = await signedInContext(browser, provider);
  const host = await hostCtx.newPage();
  await host.goto(`/conference/${training.slug}`);
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await host.getByRole('button', { name: 'Join meeting' }).click();
  await expect(host.getByRole('button', { name: 'End meeting for all' })).toBeVisible();

  await guest.getByRole('button', { name: 'Try Again' }).click();
  const dialog = guest.getByRole('dialog', { name: 'Join as a guest' });
  await dialog.getByRole('textbox', { name: 'First Name' }).fill('Gita');
  await dialog.getByRole('textbox', { name: 'Last Name' }).fill('Guest');
  await screenshot(guest, 'cf-guest-name');
  await dialog.getByRole('button', { name: 'Join' }).click();
  await guest.getByRole('button', { name: 'Join meeting' }).click();
  await expect(guest.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  await expect.poll(async () => (await stats(guest)).bytesReceived, { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(host.getByRole('list', { name: 'Participants' }).getByText('Gita Guest')).toBeVisible();
  await screenshot(guest, 'cf-guest-room');

  await host.getByRole('button', { name: 'End meeting for all' }).click();
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(guest).toHaveURL(/\/$/);
  await expect(host).toHaveURL(/\/(learning-provider)?$/);
  await Promise.all([hostCtx.close(), guestCtx.close()]);
});
