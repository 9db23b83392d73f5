import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COURSE_MSG } from '@trainlab/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseTopics, courseUploads, jobs } from '../src/db/schema';
import { UPLOAD_EXPIRY_JOB } from '../src/domains/courses/uploads';
import { runDueJobs } from '../src/platform/jobs';
import { courseWithModule, MANAGERS, multipart, testVideo } from './courses-support';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-uploads-'));
const uploadsStored = (): string[] => {
  try {
    return readdirSync(path.join(dataDir, 'files', 'course-uploads'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    DATA_DIR: dataDir,
    COURSE_VIDEO_MAX_BYTES: String(2 * 1024 * 1024),
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const TUS = { 'tus-resumable': '1.0.0' };
const auth = (token: string | null) => (token ? { authorization: `Bearer ${token}` } : {});
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** POST: a new upload of `size` bytes; answers the response and the upload id. */
async function create(token: string | null, size: number, filename = 'lecture.mp4') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/course-uploads',
    headers: {
      ...TUS,
      ...auth(token),
      'upload-length': String(size),
      'upload-metadata': `filename ${b64(filename)},filetype ${b64('video/mp4')}`,
    },
  });
  const location = res.headers.location as string | undefined;
  return { res, id: location ? location.split('/').pop()! : '' };
}

const patch = (token: string | null, id: string, offset: number, data: Buffer) =>
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

const head = (token: string | null, id: string) =>
  t.app.inject({ method: 'HEAD', url: `/api/course-uploads/${id}`, headers: { ...TUS, ...auth(token) } });

/** Uploads the whole buffer in two PATCHes; answers the id. */
async function uploadAll(token: string, data: Buffer): Promise<string> {
  const { res, id } = await create(token, data.length);
  expect(res.statusCode).toBe(201);
  const half = Math.floor(data.length / 2);
  expect((await patch(token, id, 0, data.subarray(0, half))).statusCode).toBe(204);
  const last = await patch(token, id, half, data.subarray(half));
  expect(last.statusCode).toBe(204);
  return id;
}

async function topicCall(call: string, token: string, fields: Record<string, string>) {
  const m = multipart(fields);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${call}`,
    payload: m.payload,
    headers: { ...m.headers, ...auth(token) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('resumable video uploads (tus)', () => {
  it.each(
    MANAGERS,
  )('a %s uploads in pieces, resumes from the stored offset and creates a topic with the finished upload', async (role) => {
    const { token, moduleId } = await courseWithModule(t, role);
    const video = testVideo();
    const { res, id } = await create(token, video.length);
    expect(res.statusCode).toBe(201);
    expect(res.headers['tus-resumable']).toBe('1.0.0');
    expect(id).toMatch(/^[0-9a-f]{32}$/);

    const third = Math.floor(video.length / 3);
    expect((await patch(token, id, 0, video.subarray(0, third))).headers['upload-offset']).toBe(String(third));
    // after a dropped connection the client asks where to go on from
    const h = await head(token, id);
    expect(h.statusCode).toBe(200);
    expect(h.headers['upload-offset']).toBe(String(third));
    expect(h.headers['upload-length']).toBe(String(video.length));
    // a stale offset is a conflict, nothing written
    expect((await patch(token, id, 0, video.subarray(0, 10))).statusCode).toBe(409);
    const rest = await patch(token, id, third, video.subarray(third));
    expect(rest.statusCode).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(video.length));
    const [row] = await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id));
    expect(row!.finished_at).not.toBeNull();

    const created = await topicCall('create-all-course', token, {
      module_id: String(moduleId),
      name: 'Resumed',
      description: 'Uploaded in pieces',
      tus_upload_id: id,
    });
    expect(created).toMatchObject({
      status: 200,
      body: { message: COURSE_MSG.topicCreated, video_status: 'processing' },
    });
    const [topic] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, created.body.slug));
    expect(topic!.video_key).toBe(`course-uploads/${id}`);
    expect(topic!.video_bytes).toBe(video.length);
    // the upload is taken over: no longer an upload, not expired later, not usable twice
    expect(await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id))).toEqual([]);
    const again = await topicCall('create-all-course', token, {
      module_id: String(moduleId),
      name: 'Twice',
      tus_upload_id: id,
    });
    expect(again.status).toBe(404);

    await runDueJobs(t.deps);
    const [ready] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.id, topic!.id));
    expect(ready!.video_status).toBe('ready');
    expect(ready!.duration_seconds).toBeGreaterThan(0);
  });

  it('/update-all-course replaces the video with a finished upload; the old original goes', async () => {
    const { token, moduleId } = await courseWithModule(t);
    const first = await uploadAll(token, testVideo());
    const created = await topicCall('create-all-course', token, {
      module_id: String(moduleId),
      name: 'First',
      tus_upload_id: first,
    });
    expect(created.status).toBe(200);
    const second = await uploadAll(token, testVideo(2));
    const updated = await topicCall('update-all-course', token, {
      topic_id: String(created.body.id),
      module_id: String(moduleId),
      name: 'First, again',
      tus_upload_id: second,
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { message: COURSE_MSG.topicUpdated, video_status: 'processing' },
    });
    const [topic] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.id, created.body.id));
    expect(topic!.video_key).toBe(`course-uploads/${second}`);
    expect(topic!.video_bytes).toBe(testVideo(2).length);
    expect(uploadsStored()).toContain(second);
    expect(uploadsStored()).not.toContain(first);
  });

  it('non-video, empty and truncated uploads are refused with a clear error and leave nothing behind', async () => {
    const { token } = await courseWithModule(t);
    const before = uploadsStored().length;
    const rowsBefore = (await t.deps.db.select().from(courseUploads)).length;

    const text = Buffer.from('just some text, named like a video');
    const { id } = await create(token, text.length);
    const refused = await patch(token, id, 0, text);
    expect(refused.statusCode).toBe(422);
    expect(JSON.parse(refused.body)).toEqual({ course_url: [COURSE_MSG.videoNotVideo] });

    const video = testVideo();
    const cut = video.subarray(0, Math.floor(video.length / 2));
    const truncated = await create(token, cut.length);
    const r2 = await patch(token, truncated.id, 0, cut);
    expect(r2.statusCode).toBe(422);
    expect(JSON.parse(r2.body)).toEqual({ course_url: [COURSE_MSG.videoNotVideo] });

    const empty = await create(token, 0);
    expect(empty.res.statusCode).toBe(422);
    expect(JSON.parse(empty.res.body)).toEqual({ course_url: [COURSE_MSG.videoUnreadable] });

    expect(uploadsStored().length).toBe(before);
    expect((await t.deps.db.select().from(courseUploads)).length).toBe(rowsBefore);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('tl-tus-'))).toEqual([]);
    // a refused upload is gone for good
    expect((await head(token, id)).statusCode).toBe(404);
  });

  it('the size limit is COURSE_VIDEO_MAX_BYTES: a larger upload is refused at creation', async () => {
    const { token } = await courseWithModule(t);
    expect((await create(token, 2 * 1024 * 1024)).res.statusCode).toBe(201);
    const over = await create(token, 2 * 1024 * 1024 + 1);
    expect(over.res.statusCode).toBe(422);
    expect(JSON.parse(over.res.body)).toEqual({ course_url: ['The course url must not be greater than 2 megabytes.'] });
    expect(over.id).toBe('');
  });

  it('metadata holding a NUL character is refused at creation with the field named, and nothing is kept', async () => {
    const { token } = await courseWithModule(t);
    const before = (await t.deps.db.select().from(courseUploads)).length;
    const bad = await create(token, 1024, 'lecture\u0000.mp4');
    expect(bad.res.statusCode).toBe(422);
    expect(JSON.parse(bad.res.body)).toEqual({ filename: ['The filename format is invalid.'] });
    expect(bad.id).toBe('');
    expect((await t.deps.db.select().from(courseUploads)).length).toBe(before);
  });

  it('401 without a session, 403 for every role that may not author courses', async () => {
    expect((await create(null, 100)).res.statusCode).toBe(401);
    const { token } = await courseWithModule(t);
    const { id } = await create(token, 100);
    expect((await head(null, id)).statusCode).toBe(401);
    expect((await patch(null, id, 0, Buffer.from('x'))).statusCode).toBe(401);
    for (const role of rolesExcept(...MANAGERS)) {
      const other = await t.loginAs({ role });
      const res = await create(other.token, 100);
      expect(res.res.statusCode, role).toBe(403);
      expect((await head(other.token, id)).statusCode, role).toBe(403);
      expect((await patch(other.token, id, 0, Buffer.from('x'))).statusCode, role).toBe(403);
    }
  });

  it('another tenant’s upload answers 404 to HEAD, PATCH, DELETE and to the topic calls', async () => {
    const a = await courseWithModule(t);
    const b = await courseWithModule(t, 'organization');
    const id = await uploadAll(a.token, testVideo());
    expect((await head(b.token, id)).statusCode).toBe(404);
    expect((await patch(b.token, id, 0, Buffer.from('x'))).statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/course-uploads/${id}`,
      headers: { ...TUS, ...auth(b.token) },
    });
    expect(del.statusCode).toBe(404);
    const stolen = await topicCall('create-all-course', b.token, {
      module_id: String(b.moduleId),
      name: 'Not mine',
      tus_upload_id: id,
    });
    expect(stolen.status).toBe(404);
    expect((await head(a.token, id)).statusCode).toBe(200);
    // an unknown id, or one that is not an id at all
    expect((await head(a.token, 'f'.repeat(32))).statusCode).toBe(404);
    expect((await head(a.token, '..%2Fetc')).statusCode).toBe(404);
  });

  it('the id acted on is the id checked: HEAD, PATCH and DELETE with another upload’s id in the query string or after an encoded slash', async () => {
    const a = await courseWithModule(t);
    const b = await courseWithModule(t);
    // a victim upload with 200 of its 1000 bytes stored, and the caller's own with 100
    const victim = (await create(b.token, 1000)).id;
    expect((await patch(b.token, victim, 0, Buffer.alloc(200, 2))).statusCode).toBe(204);
    const victimOffset = async () => (await head(b.token, victim)).headers['upload-offset'];
    for (const form of [(own: string) => `${own}?x=/${victim}`, (own: string) => `${own}%2F${victim}`]) {
      const own = (await create(a.token, 1000)).id;
      expect((await patch(a.token, own, 0, Buffer.alloc(100, 1))).statusCode).toBe(204);
      const url = `/api/course-uploads/${form(own)}`;

      // HEAD reads the caller's own upload (or nothing), never the victim's offset
      const h = await t.app.inject({ method: 'HEAD', url, headers: { ...TUS, ...auth(a.token) } });
      if (h.statusCode === 200) expect(h.headers['upload-offset']).toBe('100');
      else expect(h.statusCode).toBe(404);

      // PATCH at the victim's offset: the caller's upload is at 100, so a conflict (or a 404); the victim keeps 200 bytes
      const p = await t.app.inject({
        method: 'PATCH',
        url,
        headers: {
          ...TUS,
          ...auth(a.token),
          'upload-offset': '200',
          'content-type': 'application/offset+octet-stream',
        },
        payload: Buffer.alloc(10, 3),
      });
      expect([404, 409]).toContain(p.statusCode);
      expect(await victimOffset()).toBe('200');

      // DELETE removes the caller's own upload at most; the victim's stays
      const d = await t.app.inject({ method: 'DELETE', url, headers: { ...TUS, ...auth(a.token) } });
      expect([204, 404]).toContain(d.statusCode);
      expect(await victimOffset()).toBe('200');
      expect(await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, victim))).toHaveLength(1);
    }
  });

  it('422: an unfinished upload cannot make a topic; the other fields are still checked', async () => {
    const { token, moduleId } = await courseWithModule(t);
    const video = testVideo();
    const { id } = await create(token, video.length);
    await patch(token, id, 0, video.subarray(0, 100));
    const unfinished = await topicCall('create-all-course', token, {
      module_id: String(moduleId),
      name: 'Too early',
      tus_upload_id: id,
    });
    expect(unfinished).toMatchObject({ status: 422, body: { tus_upload_id: [COURSE_MSG.uploadNotFinished] } });
    const noName = await topicCall('create-all-course', token, { module_id: String(moduleId), tus_upload_id: id });
    expect(noName.status).toBe(422);
    expect(Object.keys(noName.body)).toEqual(['name']);
    expect(await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id))).toHaveLength(1);
  });

  it('DELETE cancels an upload with its bytes', async () => {
    const { token } = await courseWithModule(t);
    const { id } = await create(token, 1000);
    await patch(token, id, 0, Buffer.alloc(100, 1));
    expect(uploadsStored()).toContain(id);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/course-uploads/${id}`,
      headers: { ...TUS, ...auth(token) },
    });
    expect(del.statusCode).toBe(204);
    expect(uploadsStored()).not.toContain(id);
    expect(await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id))).toEqual([]);
  });

  it('an abandoned upload expires: the expiry job removes its row and bytes; a taken-over one stays', async () => {
    const { token, moduleId } = await courseWithModule(t);
    const { id } = await create(token, 1000);
    await patch(token, id, 0, Buffer.alloc(100, 1));
    const taken = await uploadAll(token, testVideo());
    expect(
      (await topicCall('create-all-course', token, { module_id: String(moduleId), name: 'Kept', tus_upload_id: taken }))
        .status,
    ).toBe(200);
    // both expiry jobs fall due now
    await t.deps.db
      .update(jobs)
      .set({ run_at: new Date(Date.now() - 1000) })
      .where(eq(jobs.kind, UPLOAD_EXPIRY_JOB));
    await t.deps.db.execute(sql`update course_uploads set expires_at = now() - interval '1 second'`);
    await runDueJobs(t.deps);
    expect(uploadsStored()).not.toContain(id);
    expect(uploadsStored()).toContain(taken);
    expect(await t.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id))).toEqual([]);
    expect((await head(token, id)).statusCode).toBe(404);
  });
});
