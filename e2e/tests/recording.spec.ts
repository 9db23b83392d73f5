import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { MSG } from '@trainlab/contract';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import { login, screenshot } from '../support/session';

// The journey acts as provider@demo.test (one session per account).
test.describe.configure({ mode: 'serial' });

test.use({ launchOptions: CHROMIUM_WITH_FAKE_MEDIA });

const day = 24 * 3600_000;

/** A provider's training with one syllabus topic, created through the API from the signed-in page. */
async function trainingWithTopic(page: Page) {
  const name = `Recorded ${randomBytes(3).toString('hex')}`;
  return page.evaluate(
    async ({ name, start, end }) => {
      const token = localStorage.getItem('token');
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`/api/${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        const json = await res.json();
        if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      const training = await post('create-training', {
        name,
        start_date: start,
        end_date: end,
        total_training_day: 1,
        number_of_participants: 5,
        description: 'Recorded in the browser.',
        requirements: [],
      });
      await post('add-training-syllabus', { slug: training.slug, topic_name: 'Recorded topic' });
      const syllabus = await post('get-training-syllabus', { slug: training.slug });
      return { slug: training.slug as string, topicId: syllabus.list[0].id as number };
    },
    { name, start: new Date(Date.now() + day).toISOString(), end: new Date(Date.now() + 2 * day).toISOString() },
  );
}

/**
 * Records the fake camera and microphone with MediaRecorder in 1 s slices for `ms`, uploading each
 * chunk in order through /recording-chunk as it arrives, then /recording-finish.
 */
async function recordAndUpload(page: Page, slug: string, topicId: number, ms: number) {
  return page.evaluate(
    async ({ slug, topicId, ms }) => {
      const token = localStorage.getItem('token');
      const auth = { Authorization: `Bearer ${token}` };
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
      const mime = MediaRecorder.isTypeSupported('video/webm;codecs=vp8,opus')
        ? 'video/webm;codecs=vp8,opus'
        : 'video/webm';
      const start = await fetch('/api/recording-start', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ slug, topic_id: topicId, mime }),
      }).then((r) => r.json());
      let index = 0;
      let chain = Promise.resolve();
      const statuses: number[] = [];
      const recorder = new MediaRecorder(stream, { mimeType: mime });
      recorder.ondataavailable = (e) => {
        if (!e.data.size) return;
        const data = e.data;
        chain = chain.then(async () => {
          const form = new FormData();
          form.append('id', String(start.id));
          form.append('index', String(index++));
          form.append('file', data, 'chunk.webm');
          const res = await fetch('/api/recording-chunk', { method: 'POST', headers: auth, body: form });
          statuses.push(res.status);
        });
      };
      const stopped = new Promise((r) => recorder.addEventListener('stop', r, { once: true }));
      recorder.start(1000);
      await new Promise((r) => setTimeout(r, ms));
      recorder.stop();
      await stopped;
      await chain;
      for (const t of stream.getTracks()) t.stop();
      const finish = await fetch('/api/recording-finish', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: start.id }),
      }).then((r) => r.json());
      return { id: start.id as number, mime, chunks: index, statuses, finish };
    },
    { slug, topicId, ms },
  );
}

test('the moderator records in the browser and the recording plays at /recording/{base64 id}', async ({ page }) => {
  await login(page, 'provider@demo.test');
  await expect(page).not.toHaveURL(/\/login$/);
  const { slug, topicId } = await trainingWithTopic(page);

  const rec = await recordAndUpload(page, slug, topicId, 4000);
  expect(rec.chunks).toBeGreaterThanOrEqual(3);
  expect(rec.statuses.every((s) => s === 200)).toBe(true);
  expect(rec.finish).toMatchObject({
    message: MSG.recordingSaved,
    url: `/api/recording-file/${rec.id}`,
    topic_id: topicId,
  });
  expect(rec.finish.bytes).toBeGreaterThan(1000);

  await page.goto(`/recording/${Buffer.from(String(topicId)).toString('base64')}`);
  await expect(page.getByRole('heading', { name: 'Recording: Recorded topic' })).toBeVisible();
  const video = page.getByLabel('Recording');
  await expect(video).toHaveAttribute('src', new RegExp(`^/api/recording-file/${rec.id}\\?t=`));
  // the browser loads the file itself (no Authorization header): metadata arrives
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  const meta = await video.evaluate((v: HTMLVideoElement) => ({
    duration: v.duration,
    w: v.videoWidth,
    h: v.videoHeight,
  }));
  expect(meta.duration).toBeGreaterThan(0);
  expect(meta.w).toBeGreaterThan(0);

  // a byte range of the same signed URL
  const src = (await video.getAttribute('src'))!;
  const ranged = await page.request.get(src, { headers: { Range: 'bytes=0-99' } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()['content-range']).toBe(`bytes 0-99/${rec.finish.bytes}`);
  expect(ranged.headers()['content-type']).toBe(rec.mime);
  await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).play().catch(() => undefined));
  await page.waitForTimeout(800);
  await screenshot(page, 'recording-player');

  // without the token the file is refused
  expect((await page.request.get(`/api/recording-file/${rec.id}`)).status()).toBe(401);

  // the details page links to it with 'Play recording'
  await page.goto(`/training-details/${slug}`);
  await expect(page.getByRole('link', { name: 'Play recording of Recorded topic' })).toBeVisible();

  // a topic without a recording
  await page.goto(`/recording/${Buffer.from('999999').toString('base64')}`);
  await expect(page.getByText(MSG.recordingNotAvailable)).toBeVisible();
  await screenshot(page, 'recording-not-available');
});
