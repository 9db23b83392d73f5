import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COURSE_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courses, courseTopics, jobs } from '../src/db/schema';
import { renditionHeights, VIDEO_JOB } from '../src/domains/courses/video';
import { runDueJobs } from '../src/platform/jobs';
import { courseWithModule, MANAGERS, readyTopic, testVideo, upload } from './courses-support';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-courses-'));
const filesIn = (dir: string): string[] => {
  try {
    return readdirSync(path.join(dataDir, 'files', dir), { recursive: true }) as string[];
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

const validCourse = { name: 'Docker', amount: '1200', is_paid: 1, is_public: 0, description: 'Containers' };

describe('courses and modules', () => {
  it('each manager role creates a course of its tenant; amounts travel in rupees and are stored in paise', async () => {
    for (const role of MANAGERS) {
      const { token, courseId, courseSlug } = await courseWithModule(t, role);
      const [row] = await t.deps.db.select().from(courses).where(eq(courses.id, courseId));
      expect(row!.amount_paise).toBe(49950);
      const list = await t.post('get-courses', {}, token);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 1, page: 1, per_page: 20 });
      expect(list.body.list[0]).toMatchObject({
        slug: courseSlug,
        name: 'Kubernetes Basics',
        amount: 499.5,
        is_paid: 1,
        is_public: 1,
        topics: 0,
        learners: 0,
      });
      const details = await t.post('get-course-details', { slug: courseSlug }, token);
      expect(details.body.success).toMatchObject({ id: courseId, course_id: courseId, amount: 499.5 });
      const modules = await t.post('get-modules', { course_id: courseId }, token);
      expect(modules.body.list).toEqual([expect.objectContaining({ name: 'Getting started', course_id: courseId })]);
    }
  });

  it('an organization and its sub-admin share the organization’s courses', async () => {
    const org = await t.createOrganization();
    const a = await t.loginAs({ role: 'organization', organization_id: org.id });
    const b = await t.loginAs({ role: 'org_subadmin', organization_id: org.id });
    const c = await t.post('create-course', validCourse, a.token);
    expect((await t.post('get-course-details', { slug: c.body.slug }, b.token)).status).toBe(200);
  });

  it('lists are paged, searchable and sortable', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    for (const name of ['Alpha', 'Beta', 'Gamma']) await t.post('create-course', { ...validCourse, name }, token);
    const page = await t.post('get-courses', { per_page: 2, page: 2, sort: 'name' }, token);
    expect(page.body).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.body.list.map((c: { name: string }) => c.name)).toEqual(['Gamma']);
    const found = await t.post('get-courses', { search: 'bet' }, token);
    expect(found.body.list.map((c: { name: string }) => c.name)).toEqual(['Beta']);
    expect((await t.post('get-courses', { sort: 'colour' }, token)).status).toBe(422);
  });

  it('422 per field of /create-course and /create-module', async () => {
    const { token, courseId } = await courseWithModule(t);
    const empty = await t.post('create-course', {}, token);
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({
      name: ['The name field is required.'],
      amount: ['The amount field is required.'],
    });
    const bad = await t.post(
      'create-course',
      { name: 'x'.repeat(256), amount: 'ten', is_paid: 3, is_public: 'yes', description: 'd'.repeat(5001) },
      token,
    );
    expect(Object.keys(bad.body).sort()).toEqual(['amount', 'description', 'is_paid', 'is_public', 'name']);
    expect((await t.post('create-course', { ...validCourse, name: 'x'.repeat(255) }, token)).status).toBe(200);
    expect((await t.post('create-course', { ...validCourse, amount: -1 }, token)).body.amount).toBeDefined();
    expect((await t.post('create-course', { ...validCourse, amount: 10.005 }, token)).body.amount).toBeDefined();
    const mod = await t.post('create-module', {}, token);
    expect(Object.keys(mod.body).sort()).toEqual(['course_id', 'name']);
    expect((await t.post('create-module', { course_id: courseId, name: 'n'.repeat(256) }, token)).status).toBe(422);
  });

  it('401 without a token, 403 for every role that may not author', async () => {
    for (const call of [
      'get-courses',
      'get-modules',
      'create-course',
      'create-module',
      'get-course-details',
      'get-course-module-topic-list',
      'delete-topic',
      'retry-topic-video',
      'get-topic-details',
    ]) {
      expect((await t.post(call, {})).status, call).toBe(401);
    }
    expect((await upload(t, 'create-all-course', null, {})).status).toBe(401);
    for (const role of rolesExcept(...MANAGERS)) {
      const { token } = await t.loginAs({ role });
      for (const call of [
        'get-courses',
        'get-modules',
        'create-course',
        'create-module',
        'get-course-details',
        'get-course-module-topic-list',
        'delete-topic',
        'retry-topic-video',
      ]) {
        expect((await t.post(call, {}, token)).status, `${role} ${call}`).toBe(403);
      }
      expect((await upload(t, 'create-all-course', token, {}, testVideo())).status).toBe(403);
      expect((await upload(t, 'update-all-course', token, {}, testVideo())).status).toBe(403);
    }
  });

  it('another tenant’s course, module and topic answer 404', async () => {
    const a = await courseWithModule(t);
    const slug = await readyTopic(t, a.token, a.moduleId);
    const other = await t.loginAs({ role: 'provider' });
    const orgB = await courseWithModule(t, 'organization');
    for (const token of [other.token, orgB.token]) {
      expect((await t.post('get-course-details', { slug: a.courseSlug }, token)).status).toBe(404);
      expect((await t.post('get-modules', { course_id: a.courseId }, token)).status).toBe(404);
      expect((await t.post('create-module', { course_id: a.courseId, name: 'x' }, token)).status).toBe(404);
      expect((await t.post('get-course-module-topic-list', { slug: a.courseSlug }, token)).status).toBe(404);
      expect((await t.post('get-topic-details', { slug }, token)).status).toBe(404);
      expect((await t.post('delete-topic', { slug }, token)).status).toBe(404);
      expect((await t.post('play-course-data', { slug: a.courseSlug }, token)).status).toBe(404);
      const up = await upload(t, 'create-all-course', token, { module_id: String(a.moduleId), name: 'x' }, testVideo());
      expect(up.status).toBe(404);
    }
    expect((await t.post('get-courses', {}, other.token)).body.total).toBe(0);
  });
});

// each of these packages videos with ffmpeg, two renditions a video: minutes on a busy two-core machine
describe('topics and videos', { timeout: 120_000 }, () => {
  it('a topic upload is processing until the job packages it: duration, poster, two HLS renditions, signed ranged reads', async () => {
    const { token, moduleId, courseSlug } = await courseWithModule(t);
    const res = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Pods', description: 'What a pod is' },
      testVideo(3),
    );
    expect(res).toMatchObject({
      status: 200,
      body: { message: 'Record Added Successfully!', video_status: 'processing' },
    });
    const before = await t.post('get-course-module-topic-list', { slug: courseSlug }, token);
    expect(before.body.list[0]).toMatchObject({
      course: 'Kubernetes Basics',
      module: 'Getting started',
      topic: 'Pods',
      tslug: res.body.slug,
      video_status: 'processing',
      duration: null,
    });
    const pending = await t.post('play-course-data', { slug: courseSlug }, token);
    expect(pending.body.data[0].topics[0]).toMatchObject({ url: null, video_status: 'processing' });

    expect(await runDueJobs(t.deps, { kinds: [VIDEO_JOB] })).toMatchObject({ done: 1 });
    const [topic] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, res.body.slug));
    expect(topic).toMatchObject({ video_status: 'ready', duration_seconds: 3, renditions: [240, 144] });
    expect(topic!.media_files).toEqual(expect.arrayContaining(['master.m3u8', '240p.m3u8', '144p.m3u8', 'poster.jpg']));

    const play = await t.post('play-course-data', { slug: courseSlug }, token);
    const item = play.body.data[0].topics[0];
    expect(play.body.course).toMatchObject({ name: 'Kubernetes Basics', slug: courseSlug });
    expect(item).toMatchObject({ name: 'Pods', description: 'What a pod is', video_status: 'ready', duration: 3 });
    expect(item.url).toMatch(/^\/api\/course-media\/[^/]+\/master\.m3u8$/);
    const master = await t.app.inject({ method: 'GET', url: item.url });
    expect(master.statusCode).toBe(200);
    expect(master.headers['content-type']).toContain('mpegurl');
    expect(master.body).toContain('240p.m3u8');
    expect(master.body).toContain('144p.m3u8');
    const segmentUrl = item.url.replace('master.m3u8', '240p_0000.ts');
    const ranged = await t.app.inject({ method: 'GET', url: segmentUrl, headers: { range: 'bytes=0-187' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.length).toBe(188);
    expect(ranged.rawPayload[0]).toBe(0x47);
    const poster = await t.app.inject({ method: 'GET', url: item.poster });
    expect(poster.statusCode).toBe(200);
    expect(poster.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    // a forged or foreign token, or a file outside the package, gets nothing
    expect(
      (await t.app.inject({ method: 'GET', url: item.url.replace(/\/[^/]+\/master/, '/abc.def/master') })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: item.url.replace('master.m3u8', 'original') })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: item.url.replace('master.m3u8', '..%2Fx') })).statusCode).toBe(
      404,
    );
  });

  it('422 per field; non-video, empty and truncated uploads are refused and leave nothing behind', async () => {
    const { token, moduleId, courseId } = await courseWithModule(t);
    const topicsBefore = (await t.deps.db.select().from(courseTopics)).length;
    const jobsBefore = (await t.deps.db.select().from(jobs)).length;
    const stored = filesIn(`courses`).length;

    const none = await upload(t, 'create-all-course', token, {});
    expect(none.status).toBe(422);
    expect(Object.keys(none.body).sort()).toEqual(['course_url', 'module_id', 'name']);
    expect(none.body.course_url).toEqual([COURSE_MSG.videoRequired]);
    const long = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'n'.repeat(256), description: 'd'.repeat(5001) },
      testVideo(),
    );
    expect(Object.keys(long.body).sort()).toEqual(['description', 'name']);
    expect(
      (await upload(t, 'create-all-course', token, { module_id: 'abc', name: 'x' }, testVideo())).body.module_id,
    ).toBeDefined();

    const text = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Fake' },
      Buffer.from('just some text, named like a video'),
      'lecture.mp4',
    );
    expect(text).toMatchObject({ status: 422, body: { course_url: [COURSE_MSG.videoNotVideo] } });
    const empty = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Empty' },
      Buffer.alloc(0),
    );
    expect(empty).toMatchObject({ status: 422, body: { course_url: [COURSE_MSG.videoUnreadable] } });
    const video = testVideo();
    const truncated = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Cut' },
      video.subarray(0, Math.floor(video.length / 2)),
    );
    expect(truncated).toMatchObject({ status: 422, body: { course_url: [COURSE_MSG.videoNotVideo] } });

    expect((await t.deps.db.select().from(courseTopics)).length).toBe(topicsBefore);
    expect((await t.deps.db.select().from(jobs)).length).toBe(jobsBefore);
    expect(filesIn('courses').length).toBe(stored);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('tl-topic-'))).toEqual([]);
    expect(courseId).toBeGreaterThan(0);
  });

  it('the size limit is COURSE_VIDEO_MAX_BYTES: at the limit accepted, one byte past refused', async () => {
    const { token, moduleId } = await courseWithModule(t);
    const max = 2 * 1024 * 1024;
    const video = testVideo();
    // pad an MP4 with a trailing 'free' box so it stays a valid video of exactly `size` bytes
    const padded = (size: number) => {
      const pad = size - video.length;
      const box = Buffer.alloc(pad);
      box.writeUInt32BE(pad, 0);
      box.write('free', 4, 'latin1');
      return Buffer.concat([video, box]);
    };
    const atLimit = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Big' },
      padded(max),
    );
    expect(atLimit.status).toBe(200);
    const over = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Bigger' },
      padded(max + 1),
    );
    expect(over).toMatchObject({
      status: 422,
      body: { course_url: ['The course url must not be greater than 2 megabytes.'] },
    });
  });

  it('/update-all-course edits the text with or without a new video; a new video is processed again and the old files go', async () => {
    const { token, moduleId, courseId } = await courseWithModule(t);
    const slug = await readyTopic(t, token, moduleId, 'Services');
    const [first] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, slug));
    const other = await t.post('create-module', { course_id: courseId, name: 'Deeper' }, token);

    const textOnly = await upload(t, 'update-all-course', token, {
      topic_id: String(first!.id),
      module_id: String(other.body.id),
      name: 'Services 101',
      description: 'Now clearer',
    });
    expect(textOnly).toMatchObject({
      status: 200,
      body: { message: 'Record updated successfully!', video_status: 'ready' },
    });
    const details = await t.post('get-topic-details', { slug }, token);
    expect(details.body.success).toMatchObject({
      topic: 'Services 101',
      module: 'Deeper',
      description: 'Now clearer',
      video_status: 'ready',
    });

    const withVideo = await upload(
      t,
      'update-all-course',
      token,
      { topic_id: String(first!.id), module_id: String(moduleId), name: 'Services 101' },
      testVideo(2),
    );
    expect(withVideo.body.video_status).toBe('processing');
    expect(filesIn(`courses/topics/${first!.id}`)).not.toContain(path.basename(first?.video_key ?? ''));
    await runDueJobs(t.deps);
    const [second] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, slug));
    expect(second).toMatchObject({ video_status: 'ready', duration_seconds: 2 });
    expect(second!.hls_prefix).not.toBe(first!.hls_prefix);
    expect(filesIn(first?.hls_prefix ?? 'none')).toEqual([]);

    const bad = await upload(t, 'update-all-course', token, {});
    expect(Object.keys(bad.body).sort()).toEqual(['module_id', 'name', 'topic_id']);
    const foreignModule = await courseWithModule(t);
    const wrong = await upload(t, 'update-all-course', token, {
      topic_id: String(first!.id),
      module_id: String(foreignModule.moduleId),
      name: 'x',
    });
    expect(wrong.status).toBe(404);
    const notVideo = await upload(
      t,
      'update-all-course',
      token,
      { topic_id: String(first!.id), module_id: String(moduleId), name: 'x' },
      Buffer.from('nope nope nope nope'),
    );
    expect(notVideo.status).toBe(422);
    const [unchanged] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, slug));
    expect(unchanged!.video_key).toBe(second!.video_key);
  });

  it('/delete-topic removes the topic and every stored file of it', async () => {
    const { token, moduleId } = await courseWithModule(t);
    const slug = await readyTopic(t, token, moduleId);
    const [topic] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, slug));
    expect(filesIn(`courses/topics/${topic!.id}`).length).toBeGreaterThan(4);
    expect(await t.post('delete-topic', { slug }, token)).toEqual({
      status: 200,
      body: { message: 'Course Deleted Successfully!' },
    });
    expect(filesIn(`courses/topics/${topic!.id}`).filter((f) => !f.startsWith('hls-') || f.includes('/'))).toEqual([]);
    expect((await t.post('delete-topic', { slug }, token)).status).toBe(404);
    expect((await t.post('delete-topic', {}, token)).body.slug).toBeDefined();
  });

  it('a failed job shows its reason and can be retried', async () => {
    const { token, moduleId, courseSlug } = await courseWithModule(t);
    const res = await upload(
      t,
      'create-all-course',
      token,
      { module_id: String(moduleId), name: 'Broken' },
      testVideo(),
    );
    expect((await t.post('retry-topic-video', { slug: res.body.slug }, token)).status).toBe(422);
    // the stored original is damaged after the upload (as a bad disk would)
    const [topic] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, res.body.slug));
    const { DiskFileStore } = await import('../src/adapters/files');
    const store = new DiskFileStore(path.join(dataDir, 'files'));
    const good = testVideo();
    await store.put(topic?.video_key ?? '', Buffer.from('garbage'));
    await runDueJobs(t.deps);
    const list = await t.post('get-course-module-topic-list', { slug: courseSlug }, token);
    expect(list.body.list[0].video_status).toBe('failed');
    expect(list.body.list[0].video_error).toMatch(/could not be read/);
    await store.put(topic?.video_key ?? '', good);
    expect(await t.post('retry-topic-video', { slug: res.body.slug }, token)).toEqual({
      status: 200,
      body: { message: COURSE_MSG.processingRetried },
    });
    await runDueJobs(t.deps);
    const again = await t.post('get-topic-details', { slug: res.body.slug }, token);
    expect(again.body.success).toMatchObject({ video_status: 'ready', video_error: null });
  });

  it('without ffmpeg the job fails with a clear reason instead of crashing', async () => {
    const noTools = await createTestApp({
      DATA_DIR: dataDir,
      FFMPEG_PATH: '/nonexistent/ffmpeg',
      FFPROBE_PATH: '/nonexistent/ffprobe',
    });
    try {
      const health = await noTools.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json()).toMatchObject({ status: 'ok', video: COURSE_MSG.ffmpegMissing });
      const { token, moduleId, courseSlug } = await courseWithModule(noTools);
      const text = await upload(
        noTools,
        'create-all-course',
        token,
        { module_id: String(moduleId), name: 'x' },
        Buffer.from('plain text that is not a video'),
      );
      expect(text.status).toBe(422);
      const res = await upload(
        noTools,
        'create-all-course',
        token,
        { module_id: String(moduleId), name: 'Intro' },
        testVideo(),
      );
      expect(res.status).toBe(200);
      await runDueJobs(noTools.deps);
      const list = await noTools.post('get-course-module-topic-list', { slug: courseSlug }, token);
      expect(list.body.list[0]).toMatchObject({ video_status: 'failed', video_error: COURSE_MSG.ffmpegMissing });
    } finally {
      await noTools.close();
    }
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ status: 'ok', video: 'ok' });
  });

  it('renditions: the source height capped at 720 and about half of it', () => {
    expect(renditionHeights(1080)).toEqual([720, 360]);
    expect(renditionHeights(720)).toEqual([720, 360]);
    expect(renditionHeights(240)).toEqual([240, 144]);
  });
});
