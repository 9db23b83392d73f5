import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COURSE_MSG } from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseEnrolments, courseTopicProgress, courseTopics } from '../src/db/schema';
import { courseWithModule, LEARNERS, MANAGERS, readyTopic } from './courses-support';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-courses-learn-'));
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();

/** A provider's course with two ready topics (4 s and 3 s) and one of its learners. */
async function scenario() {
  const c = await courseWithModule(t);
  const first = await readyTopic(t, c.token, c.moduleId, 'First', 4);
  const second = await readyTopic(t, c.token, c.moduleId, 'Second', 3);
  const learner = await t.loginAs({ role: 'provider_user', provider_id: c.user.id, first_name: 'Lena' });
  return { ...c, first, second, learner };
}

/** Pretends the previous report was `seconds` ago. */
async function rewind(topicSlug: string, userId: number, seconds: number) {
  const [topic] = await t.deps.db.select().from(courseTopics).where(eq(courseTopics.slug, topicSlug));
  await t.deps.db
    .update(courseTopicProgress)
    .set({ last_report_at: sql`now() - make_interval(secs => ${seconds})` })
    .where(and(eq(courseTopicProgress.topic_id, topic!.id), eq(courseTopicProgress.user_id, userId)));
}

describe('assignment', () => {
  it('/get-lp-or-org-users lists only the caller’s learners', async () => {
    const { token, user } = await t.loginAs({ role: 'provider' });
    const mine = await t.createUser({ role: 'provider_user', provider_id: user.id, first_name: 'Mina' });
    await t.createUser({ role: 'provider_user', first_name: 'Other' });
    const res = await t.post('get-lp-or-org-users', {}, token);
    expect(res.body.list).toEqual([{ id: mine.id, first_name: 'Mina', last_name: 'provider_user', email: mine.email }]);
    const org = await t.createOrganization();
    const o = await t.loginAs({ role: 'org_subadmin', organization_id: org.id });
    const ou = await t.createUser({ role: 'organization_user', organization_id: org.id });
    await t.createUser({ role: 'organization_user', organization_id: (await t.createOrganization()).id });
    expect((await t.post('get-lp-or-org-users', {}, o.token)).body.list.map((u: { id: number }) => u.id)).toEqual([
      ou.id,
    ]);
  });

  it('assigns with a window; assigning again updates the window instead of duplicating', async () => {
    const s = await scenario();
    const body = { slug: s.courseSlug, start_date: inDays(0.001), end_date: inDays(10), userIds: [s.learner.user.id] };
    expect(await t.post('assign-course-to-user', body, s.token)).toEqual({
      status: 200,
      body: { message: COURSE_MSG.assigned, assigned: 1, updated: 0 },
    });
    const again = await t.post('assign-course-to-user', { ...body, end_date: '2099-01-31' }, s.token);
    expect(again.body).toMatchObject({ assigned: 0, updated: 1 });
    const rows = await t.deps.db.select().from(courseEnrolments).where(eq(courseEnrolments.user_id, s.learner.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.end_date?.toISOString()).toBe('2099-01-31T23:59:59.999Z');
    const list = await t.post('get-course-users-list', { slug: s.courseSlug }, s.token);
    expect(list.body).toMatchObject({ total: 1, page: 1 });
    expect(list.body.list[0]).toMatchObject({ first_name: 'Lena', source: 'assigned', is_complete: 0, percentage: 0 });
  });

  it('422 per field: dates required and valid, start not in the past, end not before start, user ids of the caller', async () => {
    const s = await scenario();
    const empty = await t.post('assign-course-to-user', {}, s.token);
    expect(Object.keys(empty.body).sort()).toEqual(['end_date', 'slug', 'start_date', 'userIds']);
    const past = await t.post(
      'assign-course-to-user',
      { slug: s.courseSlug, start_date: inDays(-1), end_date: inDays(-2), userIds: [s.learner.user.id] },
      s.token,
    );
    expect(past.body).toEqual({
      start_date: ['The start date must be a date after or equal to now.'],
      end_date: ['The end date must be a date after or equal to start date.'],
    });
    // exactly the limits: start today (date only) and end equal to start are accepted
    const today = new Date().toISOString().slice(0, 10);
    const same = await t.post(
      'assign-course-to-user',
      { slug: s.courseSlug, start_date: today, end_date: today, userIds: [s.learner.user.id] },
      s.token,
    );
    expect(same.status).toBe(200);
    expect(
      (
        await t.post(
          'assign-course-to-user',
          { slug: s.courseSlug, start_date: 'soon', end_date: today, userIds: [1] },
          s.token,
        )
      ).body.start_date,
    ).toEqual(['The start date is not a valid date.']);
    expect(
      (
        await t.post(
          'assign-course-to-user',
          { slug: s.courseSlug, start_date: today, end_date: today, userIds: [] },
          s.token,
        )
      ).status,
    ).toBe(422);
    const stranger = await t.createUser({ role: 'provider_user' });
    const foreign = await t.post(
      'assign-course-to-user',
      { slug: s.courseSlug, start_date: today, end_date: today, userIds: [stranger.id] },
      s.token,
    );
    expect(foreign).toEqual({ status: 422, body: { userIds: ['The selected user ids is invalid.'] } });
  });

  it('401, 403 per role, 404 across tenants', async () => {
    for (const call of [
      'get-lp-or-org-users',
      'assign-course-to-user',
      'get-course-users-list',
      'get-user-courses',
      'play-course-data',
      'course-progress',
      'course-list',
    ]) {
      expect((await t.post(call, {})).status, call).toBe(401);
    }
    for (const role of rolesExcept(...MANAGERS)) {
      const { token } = await t.loginAs({ role });
      for (const call of ['get-lp-or-org-users', 'assign-course-to-user', 'get-course-users-list']) {
        expect((await t.post(call, {}, token)).status, `${role} ${call}`).toBe(403);
      }
    }
    for (const role of rolesExcept(...LEARNERS)) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('get-user-courses', {}, token)).status, role).toBe(403);
    }
    for (const role of rolesExcept(...MANAGERS, ...LEARNERS)) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('play-course-data', { slug: 'x' }, token)).status, role).toBe(403);
      expect((await t.post('course-progress', { slug: 'x', position: 1, watched: 1 }, token)).status, role).toBe(403);
    }
    const s = await scenario();
    const other = await t.loginAs({ role: 'provider' });
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (
        await t.post(
          'assign-course-to-user',
          { slug: s.courseSlug, start_date: today, end_date: today, userIds: [s.learner.user.id] },
          other.token,
        )
      ).status,
    ).toBe(404);
    expect((await t.post('get-course-users-list', { slug: s.courseSlug }, other.token)).status).toBe(404);
  });
});

describe('playing and progress', () => {
  it('a learner plays only an assigned course inside its window; a stranger gets 404', async () => {
    const s = await scenario();
    expect((await t.post('play-course-data', { slug: s.courseSlug }, s.learner.token)).status).toBe(404);
    await t.post(
      'assign-course-to-user',
      { slug: s.courseSlug, start_date: inDays(1), end_date: inDays(3), userIds: [s.learner.user.id] },
      s.token,
    );
    expect(await t.post('play-course-data', { slug: s.courseSlug }, s.learner.token)).toEqual({
      status: 403,
      body: { message: COURSE_MSG.outsideWindow, code: 'forbidden' },
    });
    const listed = await t.post('get-user-courses', {}, s.learner.token);
    expect(listed.body.assigned[0]).toMatchObject({ slug: s.courseSlug, available: false, percentage: 0 });
    // the window ended yesterday
    await t.deps.db
      .update(courseEnrolments)
      .set({ start_date: new Date(Date.now() - 3 * 86400_000), end_date: new Date(Date.now() - 86400_000) })
      .where(eq(courseEnrolments.user_id, s.learner.user.id));
    expect((await t.post('play-course-data', { slug: s.courseSlug }, s.learner.token)).status).toBe(403);
    expect((await t.post('course-progress', { slug: s.first, position: 1, watched: 1 }, s.learner.token)).status).toBe(
      403,
    );
    await t.deps.db
      .update(courseEnrolments)
      .set({ start_date: new Date(Date.now() - 60_000), end_date: new Date(Date.now() + 86400_000) })
      .where(eq(courseEnrolments.user_id, s.learner.user.id));
    const play = await t.post('play-course-data', { slug: s.courseSlug }, s.learner.token);
    expect(play.status).toBe(200);
    expect(play.body.data[0].topics.map((x: { name: string }) => x.name)).toEqual(['First', 'Second']);
    const seg = await t.app.inject({ method: 'GET', url: play.body.data[0].topics[0].url });
    expect(seg.statusCode).toBe(200);
    const stranger = await t.loginAs({ role: 'provider_user' });
    expect((await t.post('play-course-data', { slug: s.courseSlug }, stranger.token)).status).toBe(404);
    expect((await t.post('course-progress', { slug: s.first, position: 1, watched: 1 }, stranger.token)).status).toBe(
      404,
    );
  });

  it('progress is credited by wall-clock time, capped by the duration; 90 % completes a topic, all topics the course', async () => {
    const s = await scenario();
    await t.post(
      'assign-course-to-user',
      { slug: s.courseSlug, start_date: inDays(0.0001), end_date: inDays(5), userIds: [s.learner.user.id] },
      s.token,
    );
    await t.deps.db
      .update(courseEnrolments)
      .set({ start_date: new Date(Date.now() - 1000) })
      .where(eq(courseEnrolments.user_id, s.learner.user.id));
    const report = (slug: string, watched: number, position: number) =>
      t.post('course-progress', { slug, watched, position }, s.learner.token);

    // first report: at most 15 s credited, capped by the 4 s video
    const a = await report(s.first, 1, 1);
    expect(a.body).toMatchObject({ seconds_watched: 1, last_position: 1, is_complete: 0, course_complete: 0 });
    // claiming an hour right away credits only the wall-clock time since (plus 2 s slack)
    const b = await report(s.first, 3600, 2);
    expect(b.body.seconds_watched).toBe(3);
    expect(b.body.is_complete).toBe(0);
    // 3 of 4 seconds is 75 %; the learner resumes at the last position
    const play = await t.post('play-course-data', { slug: s.courseSlug }, s.learner.token);
    expect(play.body.data[0].topics[0]).toMatchObject({ seconds_watched: 3, last_position: 2, is_complete: 0 });
    expect(play.body.percentage).toBe(43);
    await rewind(s.first, s.learner.user.id, 60);
    const c = await report(s.first, 60, 4);
    // never more than the video has: 4 s, complete at ≥ 90 %
    expect(c.body).toMatchObject({ seconds_watched: 4, last_position: 4, is_complete: 1, course_complete: 0 });
    const mine = await t.post('get-user-courses', {}, s.learner.token);
    expect(mine.body.assigned[0]).toMatchObject({ percentage: 57, available: true, is_complete: 0 });

    await report(s.second, 2, 2);
    await rewind(s.second, s.learner.user.id, 5);
    const d = await report(s.second, 1, 3);
    expect(d.body).toMatchObject({ seconds_watched: 3, is_complete: 1, course_complete: 1, percentage: 100 });
    const done = await t.post('get-user-courses', {}, s.learner.token);
    expect(done.body.assigned).toEqual([]);
    expect(done.body.completed[0]).toMatchObject({ slug: s.courseSlug, is_complete: 1, percentage: 100 });
    const users = await t.post('get-course-users-list', { slug: s.courseSlug }, s.token);
    expect(users.body.list[0]).toMatchObject({ is_complete: 1, percentage: 100 });
  });

  it('the exact 90 % boundary: one second short stays incomplete', async () => {
    const c = await courseWithModule(t);
    const slug = await readyTopic(t, c.token, c.moduleId, 'Ten', 10);
    const learner = await t.loginAs({ role: 'provider_user', provider_id: c.user.id });
    await t.deps.db
      .insert(courseEnrolments)
      .values({ course_id: c.courseId, user_id: learner.user.id, source: 'purchase' });
    const first = await t.post('course-progress', { slug, watched: 8, position: 8 }, learner.token);
    expect(first.body).toMatchObject({ seconds_watched: 8, is_complete: 0 });
    await rewind(slug, learner.user.id, 10);
    const ninth = await t.post('course-progress', { slug, watched: 1, position: 9 }, learner.token);
    expect(ninth.body).toMatchObject({ seconds_watched: 9, is_complete: 1 });
    // a bought course at 100 % is listed under Completed, not under Enrolled (issue 41)
    const mine = (await t.post('get-user-courses', {}, learner.token)).body;
    expect(mine.enrolled).toEqual([]);
    expect(mine.completed).toMatchObject([{ slug: expect.any(String), percentage: 100 }]);
  });

  it('422 per field of /course-progress; a topic still processing cannot be reported', async () => {
    const s = await scenario();
    const bad = await t.post('course-progress', { slug: '', position: -1, watched: 3601 }, s.token);
    expect(Object.keys(bad.body).sort()).toEqual(['position', 'slug', 'watched']);
    expect((await t.post('course-progress', { slug: s.first, position: 0, watched: 3600 }, s.token)).status).toBe(200);
  });

  it('Enrolled lists purchases (no window); learners of other sources are not mixed in', async () => {
    const s = await scenario();
    await t.deps.db
      .insert(courseEnrolments)
      .values({ course_id: s.courseId, user_id: s.learner.user.id, source: 'purchase' });
    const res = await t.post('get-user-courses', {}, s.learner.token);
    expect(res.body.assigned).toEqual([]);
    expect(res.body.enrolled[0]).toMatchObject({
      slug: s.courseSlug,
      start_date: null,
      available: true,
      percentage: 0,
    });
    expect((await t.post('play-course-data', { slug: s.courseSlug }, s.learner.token)).status).toBe(200);
  });
});

describe('/course-list', () => {
  it('lists public courses to anyone signed in, paged', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    await t.post('create-course', { name: 'Hidden course', amount: 0, is_public: 0 }, token);
    await t.post('create-course', { name: 'Open course zz', amount: 10, is_public: 1, is_paid: 1 }, token);
    const { token: user } = await t.loginAs({ role: 'user' });
    const res = await t.post('course-list', { search: 'course zz' }, user);
    expect(res.body).toMatchObject({ total: 1, list: [{ name: 'Open course zz', amount: 10, is_paid: 1 }] });
    expect((await t.post('course-list', { search: 'Hidden' }, user)).body.total).toBe(0);
    expect((await t.post('course-list', { per_page: 101 }, user)).status).toBe(422);
  });
});
