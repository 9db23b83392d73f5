import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../src/adapters/files/s3-store';
import { courseTopics } from '../src/db/schema';
import { runDueJobs } from '../src/platform/jobs';
import { courseWithModule, multipart, readyTopic, testVideo } from './courses-support';
import { createTestApp, type TestApp } from './helpers';
import { startS3 } from './s3-support';

let t: TestApp;
let s3: Awaited<ReturnType<typeof startS3>>;
let bucket: S3FileStore;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-courses-s3-'));

beforeAll(async () => {
  s3 = await startS3();
  bucket = new S3FileStore(s3.options);
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir, ...s3.env });
});
afterAll(async () => {
  await t.close();
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const TUS = { 'tus-resumable': '1.0.0' };

describe('recorded courses on the S3 file store', () => {
  it('a resumable upload goes into the bucket, is processed there and plays from presigned URLs with byte ranges', async () => {
    const { token, moduleId, courseSlug } = await courseWithModule(t);
    const auth = { authorization: `Bearer ${token}` };
    const video = testVideo();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/course-uploads',
      headers: { ...TUS, ...auth, 'upload-length': String(video.length) },
    });
    expect(created.statusCode).toBe(201);
    const id = String(created.headers.location).split('/').pop()!;
    const half = Math.floor(video.length / 2);
    const patch = (offset: number, data: Buffer) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/course-uploads/${id}`,
        headers: {
          ...TUS,
          ...auth,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        payload: data,
      });
    expect((await patch(0, video.subarray(0, half))).statusCode).toBe(204);
    // the partial upload is an object of the bucket
    expect(await bucket.stat(`course-uploads/${id}`)).toEqual({ size: half });
    const head = await t.app.inject({ method: 'HEAD', url: `/api/course-uploads/${id}`, headers: { ...TUS, ...auth } });
    expect(head.headers['upload-offset']).toBe(String(half));
    expect((await patch(half, video.subarray(half))).statusCode).toBe(204);

    const m = multipart({ module_id: String(moduleId), name: 'From S3', tus_upload_id: id });
    const topic = await t.app.inject({
      method: 'POST',
      url: '/api/create-all-course',
      payload: m.payload,
      headers: { ...m.headers, ...auth },
    });
    expect(topic.statusCode).toBe(200);
    await runDueJobs(t.deps);
    const [row] = await t.deps.db
      .select()
      .from(courseTopics)
      .where(eq(courseTopics.slug, JSON.parse(topic.body).slug));
    if (!row) throw new Error('the topic is missing');
    expect(row.video_status).toBe('ready');
    for (const f of row.media_files ?? []) expect(await bucket.stat(`${row.hls_prefix}/${f}`), f).not.toBeNull();
    // nothing of it on the server's disk
    expect(existsSync(path.join(dataDir, 'files', 'courses'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'files', 'course-uploads'))).toBe(false);

    const play = await t.post('play-course-data', { slug: courseSlug }, token);
    const item = play.body.data[0].topics[0];
    expect(item.poster).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/.+X-Amz-Signature=`));
    expect((await fetch(item.poster)).status).toBe(200);
    const master = await t.app.inject({ method: 'GET', url: item.url });
    expect(master.statusCode).toBe(200);
    const rendition = master.body.split('\n').find((l) => l.endsWith('.m3u8'))!;
    const playlist = await t.app.inject({ method: 'GET', url: item.url.replace('master.m3u8', rendition) });
    expect(playlist.statusCode).toBe(200);
    const segments = playlist.body.split('\n').filter((l) => !l.startsWith('#') && l.trim());
    expect(segments.length).toBeGreaterThan(0);
    for (const s of segments) expect(s).toMatch(new RegExp(`^${s3.endpoint}/.+\\.ts\\?.*X-Amz-Signature=`));
    const ranged = await fetch(segments[0]!, { headers: { range: 'bytes=0-187' } });
    expect(ranged.status).toBe(206);
    const bytes = Buffer.from(await ranged.arrayBuffer());
    expect(bytes.length).toBe(188);
    expect(bytes[0]).toBe(0x47); // an MPEG-TS packet
    // a segment asked of our route by name is sent on to its presigned URL
    const name = String((row.media_files ?? []).find((f) => f.endsWith('.ts')));
    const redirect = await t.app.inject({ method: 'GET', url: item.url.replace('master.m3u8', name) });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toMatch(new RegExp(`^${s3.endpoint}/`));
  });

  it('the multipart form still works on S3, and /delete-topic empties the bucket of the topic', async () => {
    const { token, moduleId } = await courseWithModule(t);
    const slug = await readyTopic(t, token, moduleId, 'Multipart');
    const [row] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, slug));
    if (!row) throw new Error('the topic is missing');
    expect(row.video_status).toBe('ready');
    expect(await bucket.stat(String(row.video_key))).not.toBeNull();
    expect((await t.post('delete-topic', { slug }, token)).status).toBe(200);
    expect(await bucket.stat(String(row.video_key))).toBeNull();
    for (const f of row.media_files ?? []) expect(await bucket.stat(`${row.hls_prefix}/${f}`)).toBeNull();
  });
});
