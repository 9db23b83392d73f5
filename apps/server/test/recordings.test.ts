import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSafeKey, DiskFileStore } from '../src/adapters/files';
import { recordings, syllabusTopics } from '../src/db/schema';
import { decodeTopicId, parseRange } from '../src/domains/recordings/service';
import { PlaybackTokens } from '../src/domains/recordings/tokens';
import { scenario } from './conference-support';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-rec-'));
const MODERATORS = ['provider', 'organization', 'org_subadmin', 'trainer'] as const;
const VIEWERS = ['user', 'provider_user', 'organization_user', ...MODERATORS] as const;

beforeAll(async () => {
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    DATA_DIR: dataDir,
    RECORDING_MAX_BYTES: String(12 * 1024 * 1024),
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function multipart(fields: Record<string, string>, file?: Buffer) {
  const boundary = `----tl${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function chunk(token: string, fields: Record<string, string>, file?: Buffer) {
  const m = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/recording-chunk',
    payload: m.payload,
    headers: { ...m.headers, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() };
}

async function getFile(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

async function addTopic(slug: string, token: string, name = 'Pods') {
  const res = await t.post('add-training-syllabus', { slug, topic_name: name }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.deps.db.select().from(syllabusTopics).where(eq(syllabusTopics.session_topic, name));
  return row!.id;
}

/** A finished recording of `data` on a new topic of a new scenario. */
async function recorded(data: Buffer, mime = 'audio/webm;codecs=opus') {
  const s = await scenario(t);
  const topicId = await addTopic(s.tr.slug, s.provider.token, `Topic ${Math.random()}`);
  const start = await t.post('recording-start', { slug: s.tr.slug, topic_id: topicId, mime }, s.trainer.token);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const id = start.body.id as number;
  expect((await chunk(s.trainer.token, { id: String(id), index: '0' }, data)).status).toBe(200);
  const fin = await t.post('recording-finish', { id }, s.trainer.token);
  expect(fin.status, JSON.stringify(fin.body)).toBe(200);
  return { s, topicId, id };
}

const bytes = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed + 7) % 256));

describe('access', () => {
  it('401 without a token, 403 for roles outside each call', async () => {
    for (const p of ['recording-start', 'recording-chunk', 'recording-finish', 'get-recording']) {
      expect((await t.post(p, { id: 1 })).status, p).toBe(401);
    }
    for (const role of rolesExcept(...MODERATORS)) {
      const { token } = await t.loginAs({ role });
      for (const p of ['recording-start', 'recording-chunk', 'recording-finish']) {
        expect((await t.post(p, { slug: 'x', id: 1, mime: 'audio/webm' }, token)).status, `${role} ${p}`).toBe(403);
      }
    }
    for (const role of rolesExcept(...VIEWERS)) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('get-recording', { id: 1 }, token)).status, role).toBe(403);
    }
  });
});

describe('/recording-start', () => {
  it('lets the managing provider and the assigned trainer start; others of any tenant get 404', async () => {
    const s = await scenario(t);
    const res = await t.post('recording-start', { slug: s.tr.slug, mime: 'video/webm' }, s.provider.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MSG.recordingStarted, id: expect.any(Number), chunk_size: 5 * 1024 * 1024 });
    const [row] = await t.deps.db.select().from(recordings).where(eq(recordings.id, res.body.id));
    expect(row).toMatchObject({ status: 'uploading', bytes: 0, mime: 'video/webm', topic_id: null });
    expect(row!.storage_key).toMatch(/^recordings\/\d+\/[0-9a-f]{24}\.webm$/);
    expect((await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/flac' }, s.trainer.token)).status).toBe(
      200,
    );
    const otherProvider = await t.loginAs({ role: 'provider' });
    const otherTrainer = await t.loginAs({ role: 'trainer' });
    const org = await t.createOrganization();
    const orgUser = await t.loginAs({ role: 'organization', organization_id: org.id });
    for (const token of [otherProvider.token, otherTrainer.token, orgUser.token]) {
      expect((await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/webm' }, token)).status).toBe(404);
    }
  });

  it('422 for a missing slug, a bad mime and a topic of another training', async () => {
    const s = await scenario(t);
    const other = await scenario(t);
    const otherTopic = await addTopic(other.tr.slug, other.provider.token, 'Elsewhere');
    const res = await t.post('recording-start', {}, s.provider.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body).sort()).toEqual(['mime', 'slug']);
    for (const mime of ['video/mp4', 'text/html', 'audio/webm; charset=x', 'audio/webm;codecs=<script>', '']) {
      const r = await t.post('recording-start', { slug: s.tr.slug, mime }, s.provider.token);
      expect(r.status, mime).toBe(422);
      expect(Object.keys(r.body), mime).toEqual(['mime']);
    }
    for (const mime of ['audio/webm;codecs=opus', 'video/webm;codecs="vp8,opus"', 'audio/ogg', 'AUDIO/FLAC']) {
      expect((await t.post('recording-start', { slug: s.tr.slug, mime }, s.provider.token)).status, mime).toBe(200);
    }
    const bad = await t.post(
      'recording-start',
      { slug: s.tr.slug, mime: 'audio/webm', topic_id: otherTopic },
      s.provider.token,
    );
    expect(bad).toEqual({ status: 422, body: { topic_id: [MSG.recordingTopicInvalid] } });
  });
});

describe('/recording-chunk', () => {
  it('appends chunks in order, acknowledges a repeated index, refuses gaps', async () => {
    const s = await scenario(t);
    const start = await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/webm' }, s.trainer.token);
    const id = String(start.body.id);
    const a = bytes(1000, 1);
    const b = bytes(500, 3);
    expect(await chunk(s.trainer.token, { id, index: '0' }, a)).toEqual({
      status: 200,
      body: { id: Number(id), next_index: 1, bytes: 1000 },
    });
    // a retry of chunk 0 (lost answer) is not appended twice
    expect((await chunk(s.trainer.token, { id, index: '0' }, a)).body).toEqual({
      id: Number(id),
      next_index: 1,
      bytes: 1000,
    });
    expect(await chunk(s.trainer.token, { id, index: '2' }, b)).toEqual({
      status: 422,
      body: { index: ['The index must be 1.'] },
    });
    // the provider (manager) may continue the trainer's upload
    expect((await chunk(s.provider.token, { id, index: '1' }, b)).body.bytes).toBe(1500);
    const fin = await t.post('recording-finish', { id: Number(id) }, s.trainer.token);
    expect(fin.status).toBe(200);
    const file = await getFile(`/api/recording-file/${id}`, { authorization: `Bearer ${s.learner.token}` });
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, Buffer.concat([a, b]))).toBe(0);
    // finished: no more chunks
    expect(await chunk(s.trainer.token, { id, index: '2' }, b)).toEqual({
      status: 422,
      body: { id: [MSG.recordingFinished] },
    });
  });

  it('422 for missing fields, a chunk over 5 MB and a total over RECORDING_MAX_BYTES', async () => {
    const s = await scenario(t);
    const start = await t.post('recording-start', { slug: s.tr.slug, mime: 'video/webm' }, s.provider.token);
    const id = String(start.body.id);
    const missing = await chunk(s.provider.token, {});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body).sort()).toEqual(['file', 'id', 'index']);
    const badIndex = await chunk(s.provider.token, { id, index: '-1' }, bytes(10));
    expect(badIndex).toEqual({ status: 422, body: { index: ['The index must be at least 0.'] } });
    const notNumber = await chunk(s.provider.token, { id: 'abc', index: 'x' }, bytes(10));
    expect(Object.keys(notNumber.body).sort()).toEqual(['id', 'index']);
    const big = await chunk(s.provider.token, { id, index: '0' }, Buffer.alloc(5 * 1024 * 1024 + 1));
    expect(big).toEqual({ status: 422, body: { file: ['The file must not be greater than 5120 kilobytes.'] } });
    // the limit in this test app is 12 MB: 5 + 5 + (3 refused)
    for (const i of [0, 1]) {
      expect((await chunk(s.provider.token, { id, index: String(i) }, Buffer.alloc(5 * 1024 * 1024))).status).toBe(200);
    }
    expect(await chunk(s.provider.token, { id, index: '2' }, Buffer.alloc(3 * 1024 * 1024))).toEqual({
      status: 422,
      body: { file: ['The recording must not be greater than 12 megabytes.'] },
    });
    expect((await chunk(s.provider.token, { id, index: '2' }, Buffer.alloc(1024 * 1024))).body.bytes).toBe(
      11 * 1024 * 1024,
    );
  });

  it('404 for a recording of another tenant or an unassigned trainer', async () => {
    const s = await scenario(t);
    const start = await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/webm' }, s.provider.token);
    const id = String(start.body.id);
    for (const role of ['provider', 'trainer'] as const) {
      const other = await t.loginAs({ role });
      expect((await chunk(other.token, { id, index: '0' }, bytes(10))).status, role).toBe(404);
      expect((await t.post('recording-finish', { id: Number(id) }, other.token)).status, role).toBe(404);
    }
    expect((await chunk(s.provider.token, { id: '999999', index: '0' }, bytes(10))).status).toBe(404);
  });
});

describe('/recording-finish', () => {
  it("sets the recording's topic recording_url, else the training's latest topic", async () => {
    const { s, topicId, id } = await recorded(bytes(64));
    const [topic] = await t.deps.db.select().from(syllabusTopics).where(eq(syllabusTopics.id, topicId));
    expect(topic!.recording_url).toBe(`/api/recording-file/${id}`);
    const [row] = await t.deps.db.select().from(recordings).where(eq(recordings.id, id));
    expect(row).toMatchObject({ status: 'ready', bytes: 64, topic_id: topicId });
    expect(row!.finished_at).toBeInstanceOf(Date);

    // without topic_id: the most recently started topic
    const first = await addTopic(s.tr.slug, s.provider.token, `First ${Math.random()}`);
    const second = await addTopic(s.tr.slug, s.provider.token, `Second ${Math.random()}`);
    await t.deps.db.update(syllabusTopics).set({ started_at: new Date() }).where(eq(syllabusTopics.id, first));
    const start = await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/webm' }, s.provider.token);
    await chunk(s.provider.token, { id: String(start.body.id), index: '0' }, bytes(10));
    const fin = await t.post('recording-finish', { id: start.body.id }, s.provider.token);
    expect(fin).toEqual({
      status: 200,
      body: {
        message: MSG.recordingSaved,
        id: start.body.id,
        url: `/api/recording-file/${start.body.id}`,
        bytes: 10,
        topic_id: first,
      },
    });
    const [f] = await t.deps.db.select().from(syllabusTopics).where(eq(syllabusTopics.id, first));
    expect(f!.recording_url).toBe(`/api/recording-file/${start.body.id}`);
    const [sec] = await t.deps.db.select().from(syllabusTopics).where(eq(syllabusTopics.id, second));
    expect(sec!.recording_url).toBeNull();
    // finishing twice answers the same
    expect((await t.post('recording-finish', { id: start.body.id }, s.provider.token)).body.topic_id).toBe(first);
  });

  it('422 for an empty recording and for a bad id', async () => {
    const s = await scenario(t);
    const start = await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/webm' }, s.provider.token);
    expect(await t.post('recording-finish', { id: start.body.id }, s.provider.token)).toEqual({
      status: 422,
      body: { id: [MSG.recordingEmpty] },
    });
    expect((await t.post('recording-finish', { id: 'x' }, s.provider.token)).status).toBe(422);
    expect((await t.post('recording-finish', {}, s.provider.token)).status).toBe(422);
  });
});

describe('/get-recording and GET /api/recording-file/:id', () => {
  it('gives viewers a signed URL that streams the file with byte ranges', async () => {
    const data = bytes(2000, 5);
    const { s, topicId, id } = await recorded(data);
    for (const who of [s.learner, s.provider, s.trainer]) {
      const res = await t.post('get-recording', { id: Buffer.from(String(topicId)).toString('base64') }, who.token);
      expect(res.status).toBe(200);
      expect(res.body.success).toMatchObject({
        mime: 'audio/webm;codecs=opus',
        bytes: 2000,
        topic: { id: topicId },
        training: { id: s.tr.id, slug: s.tr.slug },
      });
      expect(res.body.success.url).toMatch(new RegExp(`^/api/recording-file/${id}\\?t=[\\w-]+\\.[\\w-]+$`));
    }
    const { body } = await t.post('get-recording', { id: topicId }, s.learner.token);
    const url = body.success.url as string;

    const full = await getFile(url);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('audio/webm;codecs=opus');
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['content-length']).toBe('2000');
    expect(Buffer.compare(full.rawPayload, data)).toBe(0);

    const part = await getFile(url, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/2000');
    expect(part.headers['content-length']).toBe('100');
    expect(Buffer.compare(part.rawPayload, data.subarray(100, 200))).toBe(0);

    const open = await getFile(url, { range: 'bytes=1990-' });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe('bytes 1990-1999/2000');
    const suffix = await getFile(url, { range: 'bytes=-5' });
    expect(suffix.headers['content-range']).toBe('bytes 1995-1999/2000');
    expect(Buffer.compare(suffix.rawPayload, data.subarray(1995))).toBe(0);
    const clamp = await getFile(url, { range: 'bytes=1500-99999' });
    expect(clamp.headers['content-range']).toBe('bytes 1500-1999/2000');

    const beyond = await getFile(url, { range: 'bytes=2000-2100' });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */2000');

    // the bearer token works as well
    const bearer = await getFile(`/api/recording-file/${id}`, { authorization: `Bearer ${s.trainer.token}` });
    expect(bearer.statusCode).toBe(200);
  });

  it('401 without or with a bad token, 403 for other roles, 404 across tenants', async () => {
    const { s, topicId, id } = await recorded(bytes(100));
    const { body } = await t.post('get-recording', { id: topicId }, s.learner.token);
    const token = new URL(body.success.url, 'http://x').searchParams.get('t')!;
    expect((await getFile(`/api/recording-file/${id}`)).statusCode).toBe(401);
    expect((await getFile(`/api/recording-file/${id}?t=garbage`)).statusCode).toBe(401);
    expect((await getFile(`/api/recording-file/${id}?t=${token.slice(0, -2)}xx`)).statusCode).toBe(401);
    expect((await getFile(`/api/recording-file/${id}`, { authorization: 'Bearer nope' })).statusCode).toBe(401);
    // a token of one recording does not open another
    const other = await recorded(bytes(100));
    expect((await getFile(`/api/recording-file/${other.id}?t=${token}`)).statusCode).toBe(401);

    const admin = await t.loginAs({ role: 'admin' });
    expect((await getFile(`/api/recording-file/${id}`, { authorization: `Bearer ${admin.token}` })).statusCode).toBe(
      403,
    );
    const org = await t.createOrganization();
    for (const opts of [
      { role: 'provider' as const },
      { role: 'trainer' as const },
      { role: 'user' as const },
      { role: 'organization' as const, organization_id: org.id },
      { role: 'organization_user' as const, organization_id: org.id },
    ]) {
      const stranger = await t.loginAs(opts);
      const file = await getFile(`/api/recording-file/${id}`, { authorization: `Bearer ${stranger.token}` });
      expect(file.statusCode, opts.role).toBe(404);
      expect(await t.post('get-recording', { id: topicId }, stranger.token), opts.role).toEqual({
        status: 404,
        body: { message: MSG.recordingNotAvailable, code: 'not_found' },
      });
    }
    // a recording still uploading is not served
    const start = await t.post('recording-start', { slug: s.tr.slug, mime: 'audio/webm' }, s.provider.token);
    await chunk(s.provider.token, { id: String(start.body.id), index: '0' }, bytes(10));
    const uploading = await getFile(`/api/recording-file/${start.body.id}`, {
      authorization: `Bearer ${s.provider.token}`,
    });
    expect(uploading.statusCode).toBe(404);
    for (const bad of ['abc', '..%2F..%2Fetc%2Fpasswd', '999999', '1.5']) {
      const r = await getFile(`/api/recording-file/${bad}`, { authorization: `Bearer ${s.provider.token}` });
      expect(r.statusCode, bad).toBe(404);
    }
  });

  it("answers 'Recording Not Available' for topics without a recording and unknown ids; 422 without id", async () => {
    const s = await scenario(t);
    const topicId = await addTopic(s.tr.slug, s.provider.token, `Empty ${Math.random()}`);
    for (const id of [topicId, Buffer.from(String(topicId)).toString('base64'), 'bm9wZQ==', 999999, '%%%']) {
      expect(await t.post('get-recording', { id }, s.learner.token), String(id)).toEqual({
        status: 404,
        body: { message: MSG.recordingNotAvailable, code: 'not_found' },
      });
    }
    expect((await t.post('get-recording', {}, s.learner.token)).status).toBe(422);
    // an external recording_url is handed back as it is
    await t.deps.db
      .update(syllabusTopics)
      .set({ recording_url: 'https://media.example.test/a.mp4' })
      .where(eq(syllabusTopics.id, topicId));
    const ext = await t.post('get-recording', { id: topicId }, s.learner.token);
    expect(ext.body.success).toMatchObject({ url: 'https://media.example.test/a.mp4', mime: null });
  });
});

describe('file store and helpers', () => {
  it('refuses keys that could leave the store', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tl-files-'));
    const store = new DiskFileStore(root);
    for (const key of [
      '../x',
      'a/../../x',
      '/etc/passwd',
      'a//b',
      '.hidden',
      'a/./b',
      'a\\..\\b',
      '',
      'a/b/',
      'x\0y',
      `${'a'.repeat(101)}`,
    ]) {
      expect(() => assertSafeKey(key), key).toThrow();
      await expect(store.append(key, Buffer.from('x')), key).rejects.toThrow(/unsafe/);
      await expect(store.read(key), key).rejects.toThrow(/unsafe/);
    }
    expect(await store.append('a/b.webm', Buffer.from('hello '))).toBe(6);
    expect(await store.append('a/b.webm', Buffer.from('world'))).toBe(11);
    expect(await store.stat('a/b.webm')).toEqual({ size: 11 });
    const chunks: Buffer[] = [];
    for await (const c of await store.read('a/b.webm', { start: 6, end: 10 })) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('world');
    expect(await store.put('c.flac', Buffer.from('abc'))).toBe(3);
    await store.delete('a/b.webm');
    expect(await store.stat('a/b.webm')).toBeNull();
    expect(readdirSync(root).sort()).toEqual(['a', 'c.flac']);
    rmSync(root, { recursive: true, force: true });
  });

  it('parses ranges, topic ids and playback tokens', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=5-2', 10)).toBe('bad');
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
    expect(parseRange('bytes=-', 10)).toBe('bad');
    expect(parseRange('bytes=-0', 10)).toBe('bad');
    expect(decodeTopicId(Buffer.from('42').toString('base64'))).toBe(42);
    expect(decodeTopicId('42')).toBe(42);
    expect(decodeTopicId('Li4vZXRj')).toBeNull();
    const tokens = new PlaybackTokens('a-secret-of-16-chars');
    const token = tokens.sign(5, 9, 1_000_000);
    expect(tokens.verify(token, 5, 1_000_000)).toEqual({ userId: 9 });
    expect(tokens.verify(token, 6, 1_000_000)).toBeNull();
    expect(tokens.verify(token, 5, 1_000_000 + 5 * 3600_000)).toBeNull();
    expect(new PlaybackTokens('another-secret-16ch').verify(token, 5, 1_000_000)).toBeNull();
  });
});
