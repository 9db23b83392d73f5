import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import {
  apiLogin,
  createTraining,
  freshLearner,
  joinRoom,
  localTracks,
  signedInContext,
  tag,
} from '../support/conference';
import { screenshot } from '../support/session';

// The conference with the Janus engine (playwright.janus.config.ts: a server with
// MEETING_PROVIDER=janus beside its own Janus). Media goes through Janus; the room's rules through
// our server as in the mesh.
test.describe.configure({ mode: 'serial' });
test.use({ launchOptions: CHROMIUM_WITH_FAKE_MEDIA });

const b64 = (n: number) => Buffer.from(String(n)).toString('base64');
// the player itself: the page's main landmark is labelled 'Recording' by its heading too
const RECORDING_VIDEO = 'video[aria-label="Recording"]';

interface SfuStats {
  media: 'mesh' | 'sfu';
  peers: number;
  receiving: number;
  bytesReceived: number;
  bytesSent: number;
  framesDecoded: number;
  audioEnergy: number;
}

const sfuStats = (page: Page) =>
  page.evaluate(
    async () =>
      ((await (window.__cfConference?.getStats() as Promise<unknown> | undefined)) ?? {
        media: 'mesh',
        peers: 0,
        receiving: 0,
        bytesReceived: 0,
        bytesSent: 0,
        framesDecoded: 0,
        audioEnergy: 0,
      }) as SfuStats,
  );

/** The page receives pictures and sound from `others` participants through Janus, and keeps receiving. */
async function seesAndHears(page: Page, others: number) {
  await expect.poll(async () => (await sfuStats(page)).media, { timeout: 15_000 }).toBe('sfu');
  await expect.poll(async () => (await sfuStats(page)).receiving, { timeout: 30_000 }).toBe(others);
  const before = await sfuStats(page);
  await expect
    .poll(async () => (await sfuStats(page)).framesDecoded, { timeout: 15_000 })
    .toBeGreaterThan(before.framesDecoded + 10);
  await expect
    .poll(async () => (await sfuStats(page)).audioEnergy, { timeout: 15_000 })
    .toBeGreaterThan(before.audioEnergy);
}

test('a class on Janus: moderator and learners see and hear each other, mute-all, a guest, end for all, the server recording plays', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test');
  const name = `Janus Class ${tag()}`;
  const training = await createTraining(call, name);
  await call('lp-public-training', { id: training.id });
  await call('add-training-syllabus', { slug: training.slug, topic_name: 'Recorded on the server' });
  const { list: topics } = await call<{ list: { id: number }[] }>('get-training-syllabus', { slug: training.slug });
  const topicId = topics[0]!.id;
  await call('update-training-start-status', { id: topicId });
  const anna = await freshLearner(request, call, training.slug, 'Anna');
  const ben = await freshLearner(request, call, training.slug, 'Ben');

  const hostCtx = await signedInContext(browser, provider);
  const annaCtx = await signedInContext(browser, anna);
  // Ben is on a phone: the grid pages 4 tiles at 360 px
  const benCtx = await signedInContext(browser, ben, undefined, { width: 360, height: 740 });
  const host = await hostCtx.newPage();
  const a = await annaCtx.newPage();
  const b = await benCtx.newPage();

  await host.goto(`/conference/${training.slug}`);
  const confirm = host.getByRole('dialog');
  if (
    await confirm
      .getByText('Are you sure want to start Training?')
      .isVisible()
      .catch(() => false)
  )
    await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(host.getByText(`Ready to join ${name}?`)).toBeVisible();
  await host.getByRole('button', { name: 'Join meeting' }).click();
  await expect(host.getByRole('button', { name: "Mute everyone's audio" })).toBeVisible();
  await joinRoom(a, training.slug);
  await joinRoom(b, training.slug);

  // everyone receives the two others' camera and microphone through Janus
  for (const p of [host, a, b]) await seesAndHears(p, 2);
  for (const p of [host, a, b]) await expect(p.getByTestId('cf-peer-tile')).toHaveCount(2);
  // the moderator's camera is on every learner's page, and nothing scrolls sideways on the phone
  await expect(b.getByRole('group', { name: `Video of ${provider.first_name} ${provider.last_name}` })).toBeVisible();
  expect(await b.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(host, 'cf-janus-room-host');
  await screenshot(b, 'cf-janus-room-phone');
  expect(await axeViolations(host)).toEqual([]);
  expect(await axeViolations(b)).toEqual([]);

  // the moderator records on the server (no browser recorder in a Janus room)
  await expect(host.getByRole('radiogroup', { name: 'What to record' })).toHaveCount(0);
  await host.getByRole('button', { name: 'Start recording' }).click();
  await expect(host.getByRole('button', { name: 'Stop recording' })).toBeVisible();
  await expect(a.getByText('Recording', { exact: true })).toBeVisible();

  // chat still goes through the room
  await a.getByRole('tab', { name: /Chat/ }).click();
  await a.getByRole('textbox', { name: 'Chat message' }).fill('Hello through Janus');
  await a.getByRole('button', { name: 'Send' }).click();
  await host.getByRole('tab', { name: /Chat/ }).click();
  await expect(host.getByRole('tabpanel', { name: /Chat/ }).getByText('Hello through Janus')).toBeVisible();

  // a guest joins by the public link
  const guestCtx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const guest = await guestCtx.newPage();
  await guest.goto(`/public/conference/${training.link}`);
  const dialog = guest.getByRole('dialog', { name: 'Join as a guest' });
  await dialog.getByRole('textbox', { name: 'First Name' }).fill('Gita');
  await dialog.getByRole('textbox', { name: 'Last Name' }).fill('Guest');
  await dialog.getByRole('button', { name: 'Join' }).click();
  await guest.getByRole('button', { name: 'Join meeting' }).click();
  await expect(guest.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  await seesAndHears(guest, 3);
  await host.getByRole('tab', { name: /Participants/ }).click();
  await expect(host.getByRole('list', { name: 'Participants' }).getByText('Gita Guest')).toBeVisible();
  await expect.poll(async () => (await sfuStats(host)).receiving, { timeout: 30_000 }).toBe(3);

  // the moderator mutes everyone: the others' own tracks are disabled, the moderator's stay on
  await host.getByRole('button', { name: "Mute everyone's audio" }).click();
  await host.getByRole('button', { name: "Mute everyone's video" }).click();
  for (const p of [a, b, guest]) {
    await expect
      .poll(async () => (await localTracks(p)).map((t) => `${t.kind}:${t.enabled}`).sort())
      .toEqual(['audio:false', 'video:false']);
  }
  expect((await localTracks(host)).every((t) => t.enabled)).toBe(true);
  await screenshot(a, 'cf-janus-learner-muted');

  // the moderator ends the meeting for all: everyone is sent away
  await host.getByRole('button', { name: 'End meeting for all' }).click();
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(guest).toHaveURL(/\/$/);
  for (const p of [a, b]) await expect(p).toHaveURL(/\/(lpu-home|users)?$/);
  await expect(host).toHaveURL(/\/(learning-provider)?$/);

  // the server turns Janus's recording into the topic's recording: it plays at /recording/{id}
  const player = await hostCtx.newPage();
  await expect
    .poll(
      async () => {
        await player.goto(`/recording/${b64(topicId)}`);
        // isVisible() answers at once: wait a little for the page to ask for the recording
        return player
          .locator(RECORDING_VIDEO)
          .waitFor({ state: 'visible', timeout: 5_000 })
          .then(() => true)
          .catch(() => false);
      },
      { timeout: 90_000, intervals: [3_000] },
    )
    .toBe(true);
  const video = player.locator(RECORDING_VIDEO);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  const meta = await video.evaluate((v: HTMLVideoElement) => ({ w: v.videoWidth, h: v.videoHeight }));
  expect(meta.w).toBeGreaterThan(0);
  expect(meta.h).toBeGreaterThan(0);
  await player.evaluate(() => (document.querySelector('video') as HTMLVideoElement).play().catch(() => undefined));
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.3);
  await screenshot(player, 'cf-janus-recording');
  await Promise.all([hostCtx.close(), annaCtx.close(), benCtx.close(), guestCtx.close()]);
});
