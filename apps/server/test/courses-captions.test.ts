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

/** The caption tracks of the course's first topic, as the player gets them. */
async function playerTracks(token: string, courseSlug: string) {
  const play = await t.post('play-course-data', { slug: courseSlug }, token);
  expect(play.status).toBe(200);
  return play.body.data[0].topics[0] as {
    captions: { language: string; label: string; url: string }[];
    transcript: string | null;
  };
}
/** The captions URL of the course's first topic (its first track), as the player gets it. */
async function captionsUrl(token: string, courseSlug: string): Promise<string | null> {
  return (await playerTracks(token, courseSlug)).captions[0]?.url ?? null;
}
const EN = { language: 'en', label: 'English' };

/** A WebVTT file of exactly `size` bytes. */
const vttOfSize = (size: number) => Buffer.from(`${VTT}NOTE ${'x'.repeat(size - VTT.length - 6)}\n`);

describe('captions of course videos', () => {
  it('uploads, offers and serves the captions; a second upload of the language replaces the first', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    expect(await captionsUrl(c.token, c.courseSlug)).toBeNull();

    const saved = await sendCaptions(c.token, { slug: topic, ...EN }, Buffer.from(VTT));
    expect(saved).toEqual({ status: 200, body: { message: 'Captions saved.' } });
    const url = await captionsUrl(c.token, c.courseSlug);
    expect(url).toMatch(/\/api\/course-media\/[^/]+\/captions-en\.vtt$/);
    const served = await t.app.inject({ method: 'GET', url: url! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^text\/vtt/);
    expect(served.body).toBe(VTT);

    const next = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nSecond version.\n';
    expect((await sendCaptions(c.token, { slug: topic, ...EN }, Buffer.from(next))).status).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: (await captionsUrl(c.token, c.courseSlug))! });
    expect(again.body).toBe(next);
    // a name that is not the captions file or a file of the package stays unknown
    expect(
      (await t.app.inject({ method: 'GET', url: url!.replace('captions-en.vtt', 'captions-fr.vtt') })).statusCode,
    ).toBe(404);
  });

  it('takes a file of 512 KB and refuses one byte more, a missing file and a file that is not WebVTT', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    expect(vttOfSize(CAPTIONS_MAX_BYTES).length).toBe(CAPTIONS_MAX_BYTES);
    expect((await sendCaptions(c.token, { slug: topic, ...EN }, vttOfSize(CAPTIONS_MAX_BYTES))).status).toBe(200);
    const over = await sendCaptions(c.token, { slug: topic, ...EN }, vttOfSize(CAPTIONS_MAX_BYTES + 1));
    expect(over.status).toBe(422);
    expect(over.body.file).toEqual(['The file must not be greater than 512 kilobytes.']);
    const srt = await sendCaptions(
      c.token,
      { slug: topic, ...EN },
      Buffer.from('1\n00:00:00,000 --> 00:00:02,000\nHi\n'),
    );
    expect(srt.status).toBe(422);
    expect(srt.body.file).toEqual(['The file must be a WebVTT (.vtt) file.']);
    const none = await sendCaptions(c.token, {});
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({
      slug: ['The slug field is required.'],
      language: ['The language field is required.'],
      label: ['The label field is required.'],
      file: ['The file field is required.'],
    });
    const badTag = await sendCaptions(
      c.token,
      { slug: topic, language: 'English', label: 'x'.repeat(61) },
      Buffer.from(VTT),
    );
    expect(badTag.status).toBe(422);
    expect(badTag.body.language).toEqual(['The language must be a language tag such as en or pt-BR.']);
    expect(badTag.body.label).toEqual(['The label may not be greater than 60 characters.']);
  });

  it('only the course’s own managers: another tenant 404, a learner 403, nobody 401', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    const other = await t.loginAs({ role: 'provider' });
    expect((await sendCaptions(other.token, { slug: topic, ...EN }, Buffer.from(VTT))).status).toBe(404);
    const learner = await t.loginAs({ role: 'provider_user', provider_id: c.user.id });
    expect((await sendCaptions(learner.token, { slug: topic, ...EN }, Buffer.from(VTT))).status).toBe(403);
    expect((await sendCaptions(null, { slug: topic, ...EN }, Buffer.from(VTT))).status).toBe(401);
  });
});

describe('several tracks, deleting, transcripts', () => {
  it('keeps one track per language, lists them for the author, deletes one with its file', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    expect((await sendCaptions(c.token, { slug: topic, ...EN }, Buffer.from(VTT))).status).toBe(200);
    const hindi = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nनमस्ते।\n';
    expect(
      (await sendCaptions(c.token, { slug: topic, language: 'hi', label: 'हिन्दी' }, Buffer.from(hindi))).status,
    ).toBe(200);
    const details = await t.post('get-topic-details', { slug: topic }, c.token);
    expect(details.status).toBe(200);
    expect(
      details.body.success.caption_tracks.map((x: { language: string; label: string }) => [x.language, x.label]),
    ).toEqual([
      ['en', 'English'],
      ['hi', 'हिन्दी'],
    ]);
    const tracks = (await playerTracks(c.token, c.courseSlug)).captions;
    expect(tracks.map((x) => x.label)).toEqual(['English', 'हिन्दी']);
    const hiUrl = tracks[1]!.url;
    expect(hiUrl).toMatch(/captions-hi\.vtt$/);
    expect((await t.app.inject({ method: 'GET', url: hiUrl })).body).toBe(hindi);

    // the same language (any case) replaces, keeping its place
    expect(
      (await sendCaptions(c.token, { slug: topic, language: 'EN', label: 'English (UK)' }, Buffer.from(VTT))).status,
    ).toBe(200);
    expect((await playerTracks(c.token, c.courseSlug)).captions.map((x) => x.label)).toEqual(['English (UK)', 'हिन्दी']);

    const del = await t.post('delete-topic-captions', { slug: topic, language: 'hi' }, c.token);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Captions deleted.' });
    expect((await playerTracks(c.token, c.courseSlug)).captions.map((x) => x.language)).toEqual(['en']);
    expect((await t.app.inject({ method: 'GET', url: hiUrl })).statusCode).toBe(404);
    expect((await t.post('delete-topic-captions', { slug: topic, language: 'hi' }, c.token)).status).toBe(404);
    const bad = await t.post('delete-topic-captions', { slug: topic, language: 'not a tag' }, c.token);
    expect(bad.status).toBe(422);
    expect(bad.body.language).toBeDefined();
  });

  it('delete: another tenant 404, a learner 403, nobody 401', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    await sendCaptions(c.token, { slug: topic, ...EN }, Buffer.from(VTT));
    const other = await t.loginAs({ role: 'provider' });
    expect((await t.post('delete-topic-captions', { slug: topic, language: 'en' }, other.token)).status).toBe(404);
    const learner = await t.loginAs({ role: 'provider_user', provider_id: c.user.id });
    expect((await t.post('delete-topic-captions', { slug: topic, language: 'en' }, learner.token)).status).toBe(403);
    expect((await t.post('delete-topic-captions', { slug: topic, language: 'en' })).status).toBe(401);
    expect((await playerTracks(c.token, c.courseSlug)).captions).toHaveLength(1);
  });

  it('a transcript typed, or taken from a caption track without timings; empty removes it', async () => {
    const c = await courseWithModule(t);
    const topic = await readyTopic(t, c.token, c.moduleId);
    expect((await playerTracks(c.token, c.courseSlug)).transcript).toBeNull();
    const typed = await t.post('save-topic-transcript', { slug: topic, transcript: '  Hello and welcome.  ' }, c.token);
    expect(typed.status).toBe(200);
    expect(typed.body).toEqual({ message: 'Transcript saved.', transcript: 'Hello and welcome.' });
    expect((await playerTracks(c.token, c.courseSlug)).transcript).toBe('Hello and welcome.');

    const vtt = [
      'WEBVTT',
      '',
      'NOTE made for the test',
      '',
      '1',
      '00:00:00.000 --> 00:00:02.000 align:start',
      '<v Asha>Hello <i>and</i> welcome.',
      '',
      '00:00:02.000 --> 00:00:04.000',
      'Today: labs &amp; tests.',
      '',
      '00:00:09.000 --> 00:00:10.000',
      'After a pause.',
      '',
    ].join('\n');
    await sendCaptions(c.token, { slug: topic, ...EN }, Buffer.from(vtt));
    const derived = await t.post('save-topic-transcript', { slug: topic, from_language: 'en' }, c.token);
    expect(derived.status).toBe(200);
    expect(derived.body.transcript).toBe('Asha: Hello and welcome. Today: labs & tests.\n\nAfter a pause.');
    const details = await t.post('get-topic-details', { slug: topic }, c.token);
    expect(details.body.success.transcript).toBe(derived.body.transcript);

    const missing = await t.post('save-topic-transcript', { slug: topic, from_language: 'fr' }, c.token);
    expect(missing.status).toBe(422);
    expect(missing.body.from_language).toEqual(['The video has no caption track in that language.']);
    const tooLong = await t.post('save-topic-transcript', { slug: topic, transcript: 'x'.repeat(200_001) }, c.token);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.transcript).toBeDefined();

    const other = await t.loginAs({ role: 'provider' });
    expect((await t.post('save-topic-transcript', { slug: topic, transcript: 'x' }, other.token)).status).toBe(404);
    const learner = await t.loginAs({ role: 'provider_user', provider_id: c.user.id });
    expect((await t.post('save-topic-transcript', { slug: topic, transcript: 'x' }, learner.token)).status).toBe(403);
    expect((await t.post('save-topic-transcript', { slug: topic, transcript: 'x' })).status).toBe(401);

    const removed = await t.post('save-topic-transcript', { slug: topic, transcript: '' }, c.token);
    expect(removed.body).toEqual({ message: 'Transcript removed.', transcript: null });
    expect((await playerTracks(c.token, c.courseSlug)).transcript).toBeNull();
  });
});
