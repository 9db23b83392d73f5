import { expect, type Page, test } from '@playwright/test';
import { MSG } from '@trainlab/contract';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import {
  apiLogin,
  createTraining,
  freshLearner,
  joinRoom,
  type SessionUser,
  signedInContext,
  stats,
  tag,
} from '../support/conference';
import { screenshot } from '../support/session';

// The journey acts as provider@demo.test (one session per account).
test.describe.configure({ mode: 'serial' });

test.use({ launchOptions: CHROMIUM_WITH_FAKE_MEDIA });

/** Sessions shorter than this are 0 whole minutes; the learner stays a little longer. */
const STAY_MS = 63_000;
const b64 = (n: number) => Buffer.from(String(n)).toString('base64');

async function videoMeta(page: Page) {
  const video = page.getByLabel('Recording');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  return video.evaluate((v: HTMLVideoElement) => ({ duration: v.duration, w: v.videoWidth, h: v.videoHeight }));
}

test('the moderator records the meeting with the Record button; it plays at /recording/{id}; attendance minutes are recorded', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test');
  const training = await createTraining(call, `Recorded ${tag()}`);
  await call('add-training-syllabus', { slug: training.slug, topic_name: 'Recorded topic' });
  const { list: topics } = await call<{ list: { id: number }[] }>('get-training-syllabus', { slug: training.slug });
  const topicId = topics[0]!.id;
  // the topic runs: the server writes attendance per topic as well as per training
  await call('update-training-start-status', { id: topicId });
  const learner: SessionUser = await freshLearner(request, call, training.slug, 'Rita');

  const hostCtx = await signedInContext(browser, provider);
  const learnerCtx = await signedInContext(browser, learner);
  const host = await hostCtx.newPage();
  const rita = await learnerCtx.newPage();

  await host.goto(`/conference/${training.slug}`);
  const confirm = host.getByRole('dialog');
  if (
    await confirm
      .getByText('Are you sure want to start Training?')
      .isVisible()
      .catch(() => false)
  )
    await confirm.getByRole('button', { name: 'Yes' }).click();
  await host.getByRole('button', { name: 'Join meeting' }).click();
  await expect(host.getByRole('button', { name: 'Start recording' })).toBeEnabled();

  await joinRoom(rita, training.slug);
  const ritaJoined = Date.now();
  for (const p of [host, rita])
    await expect.poll(async () => (await stats(p)).bytesReceived, { timeout: 20_000 }).toBeGreaterThan(0);
  // a learner has no recording control
  await expect(rita.getByRole('button', { name: 'Start recording' })).toHaveCount(0);

  // the moderator records the whole meeting (both pictures, both voices) for a few seconds
  await host.getByText('Full video', { exact: true }).click();
  await host.getByRole('button', { name: 'Start recording' }).click();
  const progress = host.getByRole('progressbar', { name: 'Recording upload progress' });
  await expect(progress).toBeVisible();
  await expect(host.getByText(/KB of .* uploaded · WebM video/)).toBeVisible({ timeout: 15_000 });
  await screenshot(host, 'recording-in-progress');
  await host.waitForTimeout(4_000);
  await host.getByRole('button', { name: 'Stop recording' }).click();
  await expect(host.getByText(MSG.recordingSaved)).toBeVisible({ timeout: 20_000 });
  await expect(host.getByRole('button', { name: 'Start recording' })).toBeVisible();

  // the recording is the topic's: it plays at /recording/{base64 topic id}, from a second tab of the host
  const player = await hostCtx.newPage();
  await player.goto(`/recording/${b64(topicId)}`);
  await expect(player.getByRole('heading', { name: 'Recording: Recorded topic' })).toBeVisible();
  const video = player.getByLabel('Recording');
  const src = (await video.getAttribute('src')) ?? '';
  expect(src).toMatch(/^\/api\/recording-file\/\d+\?t=/);
  const meta = await videoMeta(player);
  expect(meta.w).toBe(1280);
  expect(meta.h).toBe(720);
  await player.evaluate(() => (document.querySelector('video') as HTMLVideoElement).play().catch(() => undefined));
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.3);
  await screenshot(player, 'recording-player');
  // the signed URL serves byte ranges; without the signature the file is refused
  const ranged = await player.request.get(src, { headers: { Range: 'bytes=0-99' } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()['content-type']).toMatch(/^video\/webm/);
  const fileId = /recording-file\/(\d+)/.exec(src)?.[1];
  expect((await player.request.get(`/api/recording-file/${fileId}`)).status()).toBe(401);
  await player.close();

  // the details page links the topic's recording
  const details = await hostCtx.newPage();
  await details.goto(`/training-details/${training.slug}`);
  await expect(details.getByRole('link', { name: 'Play recording of Recorded topic' })).toBeVisible();
  await details.goto(`/recording/${b64(999_999)}`);
  await expect(details.getByText(MSG.recordingNotAvailable)).toBeVisible();
  await details.close();

  // the learner stays over a minute, then both leave; the server measured the time
  const left = STAY_MS - (Date.now() - ritaJoined);
  if (left > 0) await rita.waitForTimeout(left);
  for (const p of [rita, host]) {
    await p.getByRole('button', { name: 'Leave' }).click();
    await expect(p).toHaveURL(/\/(lpu-home|learning-provider)?$/);
  }
  const users = await call<{ list: { email: string; join: number; min: number }[] }>('lp/get-training-users', {
    slug: training.slug,
  });
  const row = users.list.find((r) => r.email === learner.email);
  expect(row?.join).toBe(1);
  expect(row?.min).toBeGreaterThanOrEqual(1);
  // …and no more than the time really spent in the room
  expect(row?.min).toBeLessThanOrEqual(Math.ceil((Date.now() - ritaJoined) / 60_000));

  // the attendance screen lists the learner in the topic with join, leave and the measured minutes
  const attendance = await hostCtx.newPage();
  await attendance.goto(`/training-attendance/${b64(training.id)}`);
  const line = attendance.getByRole('row').filter({ hasText: 'Rita' }).filter({ hasText: 'Recorded topic' });
  await expect(line).toHaveCount(1);
  const cells = (await line.getByRole('cell').allTextContents()).map((c) => c.trim());
  const headers = (await attendance.locator('thead th').allTextContents()).map((c) => c.trim());
  const cell = (title: string) => cells[headers.indexOf(title)] ?? '';
  expect(cell('Join time')).not.toBe('');
  expect(cell('Leave time')).not.toBe('');
  expect(Number(cell('Minutes'))).toBeGreaterThanOrEqual(1);
  await screenshot(attendance, 'recording-attendance');
  await Promise.all([hostCtx.close(), learnerCtx.close()]);
});
