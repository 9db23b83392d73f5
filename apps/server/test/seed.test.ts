import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseTopics } from '../src/db/schema';
import { runDueJobs } from '../src/platform/jobs';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../src/seed/demo';
import { seedDemoCourse } from '../src/seed/demo-course';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-seed-'));
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir });
  await seedDemo(t.deps.db);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const login = async (email: string) => {
  const res = await t.post('login', { email, password: DEMO_PASSWORD });
  expect(res.status, email).toBe(200);
  return res.body.success.token as string;
};

describe('demo data', () => {
  it('every demo account signs in with its role', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const res = await t.post('login', { email: account.email, password: DEMO_PASSWORD });
      expect(res.body.success.roles, account.email).toEqual([account.role]);
    }
  });

  it('gives each role something real to look at', async () => {
    const provider = await login('provider@demo.test');
    expect((await t.post('all-trainings', {}, provider)).body.list).toHaveLength(1);
    const learner = await login('learner@demo.test');
    expect((await t.post('lpu/get-trainings', {}, learner)).body.list).toHaveLength(1);
    const org = await login('org@demo.test');
    expect((await t.post('all-trainings', {}, org)).body.list).toHaveLength(1);
    const subadmin = await login('orgadmin@demo.test');
    expect((await t.post('all-trainings', {}, subadmin)).body.list).toHaveLength(1);
    const trainer = await login('trainer@demo.test');
    expect((await t.post('trainer/assigned-trainings', {}, trainer)).body.list).toHaveLength(1);
    const admin = await login('admin@demo.test');
    const accepted = await t.post('admin/new-org-subadmin-request', { type: 'accepted' }, admin);
    expect(accepted.body.list.map((r: { email: string }) => r.email)).toContain('orgadmin@demo.test');
    expect((await t.post('service-list', {}, admin)).body.list).toHaveLength(3);
    // a provider's trainer search by category finds the demo trainer, with the category's skills
    const cats = (await t.post('skill-categories', {}, provider)).body.list as { id: number; name: string }[];
    for (const name of ['Cloud Computing', 'DevOps', 'Data Science', 'Security']) {
      const category_id = cats.find((c) => c.name === name)!.id;
      const found = await t.post('get-trainer-list', { category_id }, provider);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(
        found.body.list.map((r: { first_name: string }) => r.first_name),
        name,
      ).toEqual(['Tara']);
    }
  });
});

describe('demo recorded course', () => {
  it('without ffmpeg nothing is made and the course stays without topics', async () => {
    const missing = { ...t.deps.config, FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' };
    expect(await seedDemoCourse({ ...t.deps, config: missing })).toBe(false);
    expect(await t.deps.db.select().from(courseTopics)).toEqual([]);
  });

  it('with ffmpeg: a topic with a real video, packaged by the job, playable by the assigned learner', async () => {
    expect(await seedDemoCourse(t.deps)).toBe(true);
    await runDueJobs(t.deps);
    const [topic] = await t.deps.db.select().from(courseTopics);
    expect(topic).toMatchObject({ name: 'Welcome to Docker', video_status: 'ready' });
    expect(topic!.duration_seconds).toBe(12);
    const learner = await login('learner@demo.test');
    const mine = await t.post('get-user-courses', {}, learner);
    const assigned = JSON.stringify(mine.body);
    expect(assigned).toContain('Docker from Scratch');
    const course = await t.post('get-courses', { search: 'Docker' }, await login('provider@demo.test'));
    const slug = course.body.list[0].slug as string;
    const play = await t.post('play-course-data', { slug }, learner);
    expect(play.status).toBe(200);
    const url = play.body.data[0].topics[0].url as string;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});
