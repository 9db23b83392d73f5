import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CAPTIONS_MAX_BYTES } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseWithModule, multipart, readyTopic } from './courses-support';
import { createTestApp, type TestApp } from './helpers';

// WebVTT captions per course video (issue 21): uploaded by the course's managers through the file
// store, served beside the video under the same signed token, offered to the player as a track.
let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-captions-'));
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello and welcome.\n';

async function sendCaptions(token: string | null, fields: Record<string, string>, data?: Buffer) {
  const m = multipart(fields, data ? { name: 'file', data, filename: 'captions.vtt' } : undefined);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/upload-topic-captions',
    payload: m.payload,
    headers: { ...m.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** The captions URL of the course's first topic, as the player gets it. */
async function captionsUrl(token: string, courseSlug: string): Promise<string | null> {
  const play = await t.post('play-course-data', { slug: courseSlug }, token);
  expect(play.status).toBe(200);
  return play.body.data[0].topics[0].captions ?? null;
}

/** A WebVTT file of exactly `size` bytes. */
const vttOfSize = (size: number) => Buffer.from(`${VTT}NOTE ${'x'.repeat(size - VTT.length - 6)}\n`);

describe('captions of course videos', () => {
  it('uploads, offers and serves the captions; a second upload replaces the first', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    expect(await captionsUrl(c.token, c.courseSlug)).toBeNull();

    const saved = await sendCaptions(c.token, { slug: topic }, Buffer.from(VTT));
    expect(saved).toEqual({ status: 200, body: { message: 'Captions saved.' } });
    const url = await captionsUrl(c.token, c.courseSlug);
    expect(url).toMatch(/\/api\/course-media\/[^/]+\/captions\.vtt$/);
    const served = await t.app.inject({ method: 'GET', url: url! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^text\/vtt/);
    expect(served.body).toBe(VTT);

    const next = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nSecond version.\n';
    expect((await sendCaptions(c.token, { slug: topic }, Buffer.from(next))).status).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: (await captionsUrl(c.token, c.courseSlug))! });
    expect(again.body).toBe(next);
    // a name that is not the captions file or a file of the package stays unknown
    expect((await t.app.inject({ method: 'GET', url: url!.replace('captions.vtt', 'other.vtt') })).statusCode).toBe(
      404,
    );
  });

  it('takes a file of 512 KB and refuses one byte more, a missing file and a file that is not WebVTT', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    expect(vttOfSize(CAPTIONS_MAX_BYTES).length).toBe(CAPTIONS_MAX_BYTES);
    expect((await sendCaptions(c.token, { slug: topic }, vttOfSize(CAPTIONS_MAX_BYTES))).status).toBe(200);
    const over = await sendCaptions(c.token, { slug: topic }, vttOfSize(CAPTIONS_MAX_BYTES + 1));
    expect(over.status).toBe(422);
    expect(over.body.file).toEqual(['The file must not be greater than 512 kilobytes.']);
    const srt = await sendCaptions(c.token, { slug: topic }, Buffer.from('1\n00:00:00,000 --> 00:00:02,000\nHi\n'));
    expect(srt.status).toBe(422);
    expect(srt.body.file).toEqual(['The file must be a WebVTT (.vtt) file.']);
    const none = await sendCaptions(c.token, {});
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ slug: ['The slug field is required.'], file: ['The file field is required.'] });
  });

  it('only the course’s own managers: another tenant 404, a learner 403, nobody 401', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    const other = await t.loginAs({ role: 'provider' });
    expect((await sendCaptions(other.token, { slug: topic }, Buffer.from(VTT))).status).toBe(404);
    const learner = await t.loginAs({ role: 'provider_user', provider_id: c.user.id });
    expect((await sendCaptions(learner.token, { slug: topic }, Buffer.from(VTT))).status).toBe(403);
    expect((await sendCaptions(null, { slug: topic }, Buffer.from(VTT))).status).toBe(401);
  });
});
