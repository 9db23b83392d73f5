import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COURSE_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseUploads } from '../src/db/schema';
import { courseWithModule, multipart, testVideo } from './courses-support';
import { failWrites } from './fault-trigger';
import { createTestApp, type TestApp } from './helpers';

/**
 * The database failing inside a resumable upload's calls (a failing statement injected with a
 * trigger, on PGlite and PostgreSQL alike): the call answers 503 with Retry-After and never the
 * statement, and an upload whose last chunk was stored but whose finish mark failed is finished by
 * the client's retry (the same PATCH again, or a HEAD), so a topic can take it.
 */
let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-upload-faults-'));

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const TUS = { 'tus-resumable': '1.0.0' };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Makes `when` statements on course_uploads fail as a terminated connection does, until undone. */
const failCourseUploads = (when: 'insert' | 'finish') =>
  failWrites(
    t.deps,
    'course_uploads',
    when === 'insert' ? `tg_op = 'INSERT'` : `tg_op = 'UPDATE' and new.finished_at is not null`,
  );

const create = (token: string, size: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/course-uploads',
    headers: { ...TUS, ...auth(token), 'upload-length': String(size) },
  });
const patch = (token: string, id: string, offset: number, data: Buffer) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/course-uploads/${id}`,
    headers: {
      ...TUS,
      ...auth(token),
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: data,
  });
const head = (token: string, id: string) =>
  t.app.inject({ method: 'HEAD', url: `/api/course-uploads/${id}`, headers: { ...TUS, ...auth(token) } });

async function createTopic(token: string, moduleId: number, uploadId: string) {
  const m = multipart({ module_id: String(moduleId), name: 'After a fault', tus_upload_id: uploadId });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/create-all-course',
    payload: m.payload,
    headers: { ...m.headers, ...auth(token) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** An answer of the fault: 503, Retry-After, the conventions' message, nothing of the statement. */
function expectUnavailable(res: Awaited<ReturnType<typeof create>>, userId: number) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(JSON.parse(res.body)).toEqual({ message: 'Service temporarily unavailable.', code: 'service_unavailable' });
  expect(res.body).not.toMatch(/course_uploads|insert|update|params|select/i);
  expect(res.body).not.toContain(String(userId));
}

describe('a database fault inside an upload call', () => {
  it('creating an upload answers 503 with Retry-After and no SQL or parameters; nothing is kept', async () => {
    const { token, user } = await t.loginAs({ role: 'provider' });
    const before = (await t.deps.db.select().from(courseUploads)).length;
    const restore = await failCourseUploads('insert');
    try {
      const res = await create(token, 4096);
      expectUnavailable(res, user.id);
      expect(res.headers.location).toBeUndefined();
    } finally {
      await restore();
    }
    expect((await t.deps.db.select().from(courseUploads)).length).toBe(before);
    // the database back, the same call works
    expect((await create(token, 4096)).statusCode).toBe(201);
  });

  for (const retry of ['the same last PATCH again', 'a HEAD'] as const) {
    it(`a last chunk stored whose finish mark failed is finished by ${retry}, and a topic takes the upload`, async () => {
      const { token, moduleId } = await courseWithModule(t);
      const video = testVideo();
      const created = await create(token, video.length);
      expect(created.statusCode).toBe(201);
      const id = (created.headers.location as string).split('/').pop()!;
      const half = Math.floor(video.length / 2);
      expect((await patch(token, id, 0, video.subarray(0, half))).statusCode).toBe(204);

      const restore = await failCourseUploads('finish');
      let last: Awaited<ReturnType<typeof patch>>;
      try {
        last = await patch(token, id, half, video.subarray(half));
      } finally {
        await restore();
      }
      expect(last.statusCode).toBe(503);
      expect(last.headers['retry-after']).toBe('5');
      expect(last.body).not.toMatch(/course_uploads|params/i);
      // every byte is stored, the mark is not: the topic call refuses it as unfinished
      const [stuck] = await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id));
      expect(stuck!.finished_at).toBeNull();
      expect(await createTopic(token, moduleId, id)).toMatchObject({
        status: 422,
        body: { tus_upload_id: [COURSE_MSG.uploadNotFinished] },
      });

      if (retry === 'a HEAD') {
        const h = await head(token, id);
        expect(h.statusCode).toBe(200);
        expect(h.headers['upload-offset']).toBe(String(video.length));
        expect(h.headers['upload-length']).toBe(String(video.length));
      } else {
        const again = await patch(token, id, half, video.subarray(half));
        expect(again.statusCode).toBe(204);
        expect(again.headers['upload-offset']).toBe(String(video.length));
        expect(again.headers['tus-resumable']).toBe('1.0.0');
      }
      const [finished] = await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id));
      expect(finished!.finished_at).not.toBeNull();
      const topic = await createTopic(token, moduleId, id);
      expect(topic).toMatchObject({ status: 200, body: { message: COURSE_MSG.topicCreated } });
    }, 120_000);
  }
});
