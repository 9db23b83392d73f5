import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { axeViolations, EXCALIDRAW_KNOWN } from '../support/axe';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import {
  ALREADY_OPEN,
  apiLogin,
  createTraining,
  freshLearner,
  joinRoom,
  localTracks,
  signedInContext,
  stats,
  tag,
  WAITING,
} from '../support/conference';
import { screenshot } from '../support/session';

// Every journey here acts as provider@demo.test (one session per account): one after another.
test.describe.configure({ mode: 'serial' });

test.use({ launchOptions: CHROMIUM_WITH_FAKE_MEDIA });

/** Collects every request of the context's pages that left this machine (data: and blob: URLs stay inside). */
function outsideRequests(context: BrowserContext, outside: string[] = []): string[] {
  context.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') outside.push(req.url());
  });
  return outside;
}

/** The whiteboard's editor has loaded (Excalidraw arrives in its own chunk). */
async function boardReady(page: Page) {
  await expect(page.getByTestId('cf-whiteboard').locator('.excalidraw canvas').first()).toBeVisible({
    timeout: 20_000,
  });
}

test('provider starts, two learners exchange media, mute, whiteboard, already open, attendance', async ({
  browser,
  request,
}) => {
  // three people with live media and a board: minutes on a loaded two-core machine
  test.setTimeout(240_000);
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test');
  const name = `Conference Journey ${tag()}`;
  const training = await createTraining(call, name);
  const anna = await freshLearner(request, call, training.slug, 'Anna');
  const ben = await freshLearner(request, call, training.slug, 'Ben');

  const hostCtx = await signedInContext(browser, provider);
  const annaCtx = await signedInContext(browser, anna);
  const benCtx = await signedInContext(browser, ben);
  const outside = [hostCtx, annaCtx, benCtx].map((ctx) => outsideRequests(ctx));
  // the fonts of the whiteboard come from this server (Excalidraw's default is a public CDN)
  const fonts: string[] = [];
  for (const ctx of [hostCtx, annaCtx]) {
    ctx.on('response', (res) => {
      if (res.request().resourceType() === 'font' || /\.woff2(\?|$)/.test(res.url()))
        fonts.push(`${res.status()} ${res.headers()['content-type']} ${res.url()}`);
    });
  }
  const host = await hostCtx.newPage();
  const a = await annaCtx.newPage();
  const b = await benCtx.newPage();

  // a learner before the host starts: the waiting dialog
  await a.goto(`/conference/${training.slug}`);
  await expect(a.getByRole('dialog').getByText(WAITING)).toBeVisible();
  // one Join Again: the dialog's (the page offers its own only once the dialog is closed)
  await expect(a.getByRole('button', { name: 'Join Again' })).toHaveCount(1);
  await screenshot(a, 'cf-waiting');
  await a.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(a.getByRole('button', { name: 'Join Again' })).toHaveCount(1);

  // the provider confirms the start
  await host.goto(`/conference/${training.slug}`);
  const confirm = host.getByRole('dialog');
  await expect(confirm.getByText('Are you sure want to start Training?')).toBeVisible();
  await screenshot(host, 'cf-confirm-start');
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(host.getByRole('button', { name: 'Join meeting' })).toBeVisible();
  // the pre-join screen names the training, not its slug
  await expect(host.getByText(`Ready to join ${name}?`)).toBeVisible();
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
  // the room with its video tiles, as the moderator and as a learner
  expect(await axeViolations(host)).toEqual([]);
  expect(await axeViolations(a)).toEqual([]);

  // chat reaches everyone
  await a.getByRole('tab', { name: /Chat/ }).click();
  await a.getByRole('textbox', { name: 'Chat message' }).fill('Hello from Anna');
  await a.getByRole('button', { name: 'Send' }).click();
  await b.getByRole('tab', { name: /Chat/ }).click();
  // in the chat tab (the announcement log reads it out as well)
  await expect(b.getByRole('tabpanel', { name: /Chat/ }).getByText('Hello from Anna')).toBeVisible();

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
  const board = host.getByRole('region', { name: 'Whiteboard', exact: true });
  await expect(board).toHaveAttribute('data-testid', 'cf-whiteboard');
  await boardReady(host);
  // the rectangle tool (toolbar button; its key is R), then a drag on the canvas
  await board.getByTitle(/^Rectangle/).click();
  const box = await board.boundingBox();
  if (!box) throw new Error('no whiteboard');
  const [x, y] = [box.x + box.width * 0.3, box.y + box.height * 0.35];
  await host.mouse.move(x, y);
  await host.mouse.down();
  for (let i = 1; i <= 10; i++) await host.mouse.move(x + i * 22, y + i * 12);
  await host.mouse.up();
  await expect(board).toHaveAttribute('data-elements', '1');
  const seen = a.getByRole('region', { name: 'Whiteboard (view only)', exact: true });
  await expect(seen).toHaveAttribute('data-elements', '1');
  await expect(a.getByText('The host draws here; you see it live.')).toBeVisible();
  await boardReady(a);
  // a text (key T) as well: the learner's board then draws it with Excalidraw's hand-drawn font
  await host.keyboard.press('t');
  await host.mouse.click(x, y + 190);
  await host.keyboard.type('Hello class');
  await host.keyboard.press('Escape');
  await expect(board).toHaveAttribute('data-elements', '2');
  await expect(seen).toHaveAttribute('data-elements', '2');
  await expect.poll(() => fonts.filter((f) => f.includes('/excalidraw-assets/fonts/')).length).toBeGreaterThan(0);
  for (const f of fonts) expect(f).toMatch(/^200 font\/woff2 http:\/\/localhost:\d+\//);
  await screenshot(host, 'cf-whiteboard-host');
  await screenshot(a, 'cf-whiteboard-learner');
  // accessibility of the room with the board (a few issues of Excalidraw's own UI are listed in axe.ts)
  expect(await axeViolations(host, { known: EXCALIDRAW_KNOWN })).toEqual([]);
  expect(await axeViolations(a, { known: EXCALIDRAW_KNOWN })).toEqual([]);

  // a second tab of the same learner is refused
  const second = await annaCtx.newPage();
  await second.goto(`/conference/${training.slug}`);
  await second.getByRole('button', { name: 'Join meeting' }).click();
  await expect(second.getByRole('dialog').getByText(ALREADY_OPEN)).toBeVisible();
  await screenshot(second, 'cf-already-open');
  await second.getByRole('button', { name: 'Close', exact: true }).click();
  await second.close();

  // the saved whiteboard opens outside the meeting
  const wb = await hostCtx.newPage();
  await wb.goto(`/white-board?slug=${training.slug}`);
  await expect(wb.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '2');
  await boardReady(wb);
  await screenshot(wb, 'cf-white-board-page');
  expect(await axeViolations(wb, { known: EXCALIDRAW_KNOWN })).toEqual([]);
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
  // nothing of the whole journey left this machine (fonts, scripts, styles, API calls)
  expect(outside.flat()).toEqual([]);
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
  const outside = outsideRequests(guestCtx);
  const guest = await guestCtx.newPage();
  await guest.goto(`/public/conference/${training.link}`);
  await expect(guest.getByRole('dialog').getByText(WAITING)).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Try Again' })).toBeVisible();

  const hostCtx = await signedInContext(browser, provider);
  outsideRequests(hostCtx, outside);
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
  expect(outside).toEqual([]);
  await Promise.all([hostCtx.close(), guestCtx.close()]);
});
