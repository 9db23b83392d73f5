import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingAttendances, trainings } from '../src/db/schema';
import { createTestApp, rolesExcept, type TestApp } from './helpers';
import { postMultipart } from './master-support';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { book, makeTraining, person, trainingBody } from './trainings-fixtures';

let t: TestApp;
let provider: string;
let otherProvider: string;
let org: string;
let trainer: { token: string; id: number };
let otherTrainer: { token: string; id: number };
const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;
const LEARNERS = ['provider_user', 'organization_user', 'user'] as const;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  otherProvider = (await t.loginAs({ role: 'provider' })).token;
  org = (await orgWithOwner(t)).token;
  const a = await t.loginAs({ role: 'trainer', first_name: 'Asha' });
  trainer = { token: a.token, id: a.user.id };
  const b = await t.loginAs({ role: 'trainer', first_name: 'Bala' });
  otherTrainer = { token: b.token, id: b.user.id };
});
afterAll(() => t.close());

/** A provider training with one enrolled, signed-in learner. */
async function withLearner(over: Record<string, unknown> = {}) {
  const tr = await makeTraining(t, provider, over);
  const learner = await t.loginAs({ role: 'user' });
  const added = await t.post(
    'lp/add-training-user',
    { ...person('l'), email: learner.user.email, slug: tr.slug },
    provider,
  );
  expect(added.status).toBe(200);
  return { tr, learner: learner.token, learnerId: learner.user.id, enrolmentId: added.body.id as number };
}

describe('access', () => {
  it('401 and 403 per call group', async () => {
    const body = { slug: 'x', id: 1, topic_name: 'T', trainer_ids: [1], rating: 3, is_start: true };
    await expectGuarded(
      t,
      [
        'assign-trainers-to-training',
        'get-training-trainers',
        'get-trainers-for-assignment',
        'add-training-syllabus',
        'upload-training-syllabus',
        'delete-training-syllabus',
      ],
      [...MANAGERS],
      body,
    );
    await expectGuarded(
      t,
      ['get-training-syllabus', 'update-training-start-status', 'training-attendances-details'],
      [...MANAGERS, 'trainer'],
      body,
    );
    await expectGuarded(t, ['trainer/assigned-trainings'], ['trainer'], body);
    await expectGuarded(
      t,
      [
        'lpu/training-start-status',
        'check-training-status',
        'get-user-training-details',
        'add-training-attendance',
        'add-training-rating',
        'lpu/dashboard-data',
      ],
      [...LEARNERS],
      body,
    );
    // /my-trainings is every non-admin role's screen (spec 01 §2)
    await expectGuarded(t, ['lpu/get-trainings'], rolesExcept('admin'), body);
    await expectGuarded(
      t,
      ['lp/update-training-join-status', 'lp/get-training-join-count'],
      [...LEARNERS, ...MANAGERS, 'trainer'],
      body,
    );
  });
});

describe('trainers', () => {
  it('lists active trainers, assigns (replacing the set), and the trainer sees only assigned trainings', async () => {
    const inactive = await t.createUser({ role: 'trainer', status: 0 });
    const choices = await t.post('get-trainers-for-assignment', undefined, org);
    const ids = choices.body.list.map((r: { id: number }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([trainer.id, otherTrainer.id]));
    expect(ids).not.toContain(inactive.id);
    expect(choices.body.list[0]).toEqual({
      id: expect.any(Number),
      first_name: expect.any(String),
      last_name: expect.any(String),
      email: expect.any(String),
    });

    const tr = await makeTraining(t, provider);
    const hidden = await makeTraining(t, provider);
    const assign = (trainer_ids: unknown, token = provider) =>
      t.post('assign-trainers-to-training', { slug: tr.slug, trainer_ids }, token);
    expect(await assign([trainer.id, otherTrainer.id])).toEqual({
      status: 200,
      body: { message: MSG.trainersAssigned },
    });
    expect(await assign([otherTrainer.id])).toMatchObject({ status: 200 });
    const list = await t.post('get-training-trainers', { slug: tr.slug }, provider);
    expect(list.body.list.map((r: { id: number }) => r.id)).toEqual([otherTrainer.id]);
    await assign([trainer.id]);

    const assigned = await t.post('trainer/assigned-trainings', undefined, trainer.token);
    expect(assigned.body.list.map((r: { slug: string }) => r.slug)).toEqual([tr.slug]);
    expect((await t.post('get-training-details', { slug: tr.slug }, trainer.token)).status).toBe(200);
    expect((await t.post('get-training-details', { slug: hidden.slug }, trainer.token)).status).toBe(404);
    expect((await t.post('get-training-syllabus', { slug: tr.slug }, otherTrainer.token)).status).toBe(404);

    expect(await assign([inactive.id])).toEqual({ status: 422, body: { trainer_ids: [MSG.trainerNotFound] } });
    expect((await assign([], provider)).status).toBe(422);
    expect((await t.post('assign-trainers-to-training', { slug: tr.slug }, provider)).body).toEqual({
      trainer_ids: ['The trainer ids field is required.'],
    });
    expect((await assign([trainer.id], otherProvider)).status).toBe(404);
    expect((await t.post('get-training-trainers', { slug: tr.slug }, org)).status).toBe(404);
  });
});

describe('syllabus', () => {
  it('adds, imports, lists and deletes topics; 404 across tenants; 422 per field', async () => {
    const tr = await makeTraining(t, provider);
    const added = await t.post(
      'add-training-syllabus',
      { topic_name: 'Pods', slug: tr.slug, start_time: '2030-01-01T10:00:00Z', end_time: '2030-01-01T11:00:00Z' },
      provider,
    );
    expect(added).toEqual({ status: 200, body: { message: MSG.recordAdded, id: expect.any(Number) } });
    const upload = await postMultipart(
      t,
      'upload-training-syllabus',
      [
        { name: 'slug', content: tr.slug },
        {
          name: 'file',
          filename: 's.xlsx',
          content: book([
            ['topic_name', 'start_time', 'end_time'],
            ['Services', null, null],
            ['Deployments', '', ''],
          ]),
        },
      ],
      provider,
    );
    expect(upload).toEqual({ status: 200, body: { message: MSG.recordAdded, count: 2 } });
    const bad = await postMultipart(
      t,
      'upload-training-syllabus',
      [
        { name: 'slug', content: tr.slug },
        {
          name: 'file',
          filename: 's.xlsx',
          content: book([
            ['topic_name', 'start_time', 'end_time'],
            ['', 'x', ''],
          ]),
        },
      ],
      provider,
    );
    expect(bad.body).toEqual({
      errors: [
        { row: 2, attribute: 'topic_name', errors: ['The topic name field is required.'] },
        { row: 2, attribute: 'start_time', errors: ['The start time is not a valid date.'] },
      ],
    });
    const list = await t.post('get-training-syllabus', { slug: tr.slug }, provider);
    expect(list.body.list).toEqual([
      {
        id: added.body.id,
        session_topic: 'Pods',
        start_time: '2030-01-01T10:00:00.000Z',
        end_time: '2030-01-01T11:00:00.000Z',
        no_of_min: 0,
        rating: null,
        status: 0,
        recording_url: null,
      },
      expect.objectContaining({ session_topic: 'Services', start_time: null }),
      expect.objectContaining({ session_topic: 'Deployments' }),
    ]);
    expect((await t.post('get-training-syllabus', { slug: tr.slug }, otherProvider)).status).toBe(404);
    expect((await t.post('add-training-syllabus', { topic_name: 'X', slug: tr.slug }, otherProvider)).status).toBe(404);
    expect((await t.post('delete-training-syllabus', { id: added.body.id }, otherProvider)).status).toBe(404);
    expect((await t.post('add-training-syllabus', {}, provider)).body).toEqual({
      topic_name: ['The topic name field is required.'],
      slug: ['The slug field is required.'],
    });
    expect(
      (
        await t.post(
          'add-training-syllabus',
          { topic_name: 'X', slug: tr.slug, start_time: '2030-01-02T10:00', end_time: '2030-01-01T10:00' },
          provider,
        )
      ).body,
    ).toEqual({ end_time: ['The end time must be a date after or equal to start time.'] });
    expect(await t.post('delete-training-syllabus', { id: added.body.id }, provider)).toEqual({
      status: 200,
      body: { message: MSG.recordDeleted },
    });
    expect((await t.post('delete-training-syllabus', {}, provider)).body).toEqual({
      id: ['The id field is required.'],
    });
  });
});

describe('a live training from start to rating', () => {
  it('topic status, start status, attendance, rating and attendance details', async () => {
    const { tr, learner, enrolmentId } = await withLearner();
    await t.post('assign-trainers-to-training', { slug: tr.slug, trainer_ids: [trainer.id] }, provider);
    const topic = (await t.post('add-training-syllabus', { topic_name: 'Intro', slug: tr.slug }, provider)).body.id;

    expect(await t.post('lpu/training-start-status', { slug: tr.slug }, learner)).toEqual({
      status: 200,
      body: { status: 0 },
    });
    expect(await t.post('add-training-attendance', { id: topic }, learner)).toEqual({
      status: 422,
      body: { id: [MSG.waitingForHost] },
    });
    expect(await t.post('add-training-rating', { id: topic, rating: 4 }, learner)).toEqual({
      status: 422,
      body: { id: [MSG.ratingNotAllowed] },
    });

    // the assigned trainer starts the topic: the training is started
    expect(await t.post('update-training-start-status', { id: topic }, trainer.token)).toEqual({
      status: 200,
      body: { message: MSG.topicStatusUpdated, status: 1 },
    });
    expect((await t.post('update-training-start-status', { id: topic }, otherTrainer.token)).status).toBe(404);
    expect((await t.post('update-training-start-status', { id: topic }, otherProvider)).status).toBe(404);
    const [training] = await t.deps.db.select().from(trainings).where(eq(trainings.id, tr.id));
    expect(training!.status).toBe(1);
    expect((await t.post('lpu/training-start-status', { slug: tr.slug }, learner)).body).toEqual({ status: 1 });
    expect((await t.post('check-training-status', { slug: tr.slug }, learner)).body).toEqual({
      status: 1,
      start_status: 1,
      totalTopics: 1,
    });
    expect((await t.post('delete-training-syllabus', { id: topic }, provider)).status).toBe(422);
    expect((await t.post('delete-trainings', { slug: tr.slug }, provider)).status).toBe(422);

    const join = await t.post('add-training-attendance', { id: topic }, learner);
    expect(join).toEqual({ status: 200, body: { message: MSG.attendanceAdded, id: expect.any(Number) } });
    expect((await t.post('add-training-attendance', { id: topic }, learner)).body.id).toBe(join.body.id);

    expect((await t.post('update-training-start-status', { id: topic }, provider)).body.status).toBe(2);
    expect(await t.post('update-training-start-status', { id: topic }, provider)).toEqual({
      status: 422,
      body: { id: [MSG.topicAlreadyCompleted] },
    });
    const [att] = await t.deps.db
      .select()
      .from(trainingAttendances)
      .where(eq(trainingAttendances.training_user_id, enrolmentId));
    expect(att!.left_at).not.toBeNull();

    expect(await t.post('add-training-rating', { id: topic, rating: '5' }, learner)).toEqual({
      status: 200,
      body: { message: MSG.ratingAdded },
    });
    await t.post('add-training-rating', { id: topic, rating: 4 }, learner);
    expect((await t.post('add-training-rating', { id: topic, rating: 6 }, learner)).body).toEqual({
      rating: ['The rating must not be greater than 5.'],
    });
    expect((await t.post('add-training-rating', {}, learner)).body).toEqual({
      rating: ['The rating field is required.'],
      id: ['The id field is required.'],
    });
    const stranger = await t.loginAs({ role: 'user' });
    expect((await t.post('add-training-rating', { id: topic, rating: 3 }, stranger.token)).status).toBe(404);
    expect((await t.post('add-training-attendance', { id: topic }, stranger.token)).status).toBe(404);
    expect((await t.post('get-user-training-details', { slug: tr.slug }, stranger.token)).status).toBe(404);

    const mine = await t.post('get-user-training-details', { slug: tr.slug }, learner);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.list).toEqual([
      expect.objectContaining({
        id: topic,
        session_topic: 'Intro',
        status: 2,
        rating: 4,
        ustart_time: expect.any(String),
        uend_time: expect.any(String),
        urating: 4,
      }),
    ]);
    // the page's heading names the training, not its slug
    expect(mine.body.name).toBe(trainingBody().name);
    expect((await t.post('get-training-syllabus', { slug: tr.slug }, trainer.token)).body.list[0].rating).toBe(4);

    const details = await t.post('training-attendances-details', { id: tr.id }, provider);
    expect(details.body.list).toEqual([
      {
        user_id: expect.any(Number),
        first_name: expect.any(String),
        last_name: expect.any(String),
        session_topic: 'Intro',
        start_time: expect.any(String),
        end_time: expect.any(String),
        minutes: 0,
        rating: 4,
      },
    ]);
    expect((await t.post('training-attendances-details', { id: tr.id }, otherProvider)).status).toBe(404);
    expect((await t.post('training-attendances-details', {}, provider)).body).toEqual({
      id: ['The id field is required.'],
    });
    const users = await t.post('lp/get-training-users', { slug: tr.slug }, provider);
    expect(users.body.list[0]).toMatchObject({ join: 1, min: 0 });
  });
});

describe('learner views', () => {
  it('lpu/get-trainings, dashboard data and 404 for trainings the learner is not in', async () => {
    const { tr, learner } = await withLearner({ name: 'Learner View' });
    const other = await makeTraining(t, provider);
    const mine = await t.post('lpu/get-trainings', undefined, learner);
    expect(mine).toEqual({
      status: 200,
      body: {
        list: [
          {
            id: tr.id,
            name: 'Learner View',
            slug: tr.slug,
            link: tr.link,
            start_date: expect.any(String),
            end_date: expect.any(String),
            totalTopics: 0,
            status: 0,
            is_download_certificate: 0,
          },
        ],
        total: 1,
        page: 1,
        per_page: 20,
      },
    });
    expect(await t.post('lpu/dashboard-data', undefined, learner)).toEqual({
      status: 200,
      body: {
        list: [
          {
            id: tr.id,
            name: 'Learner View',
            slug: tr.slug,
            start_date: expect.any(String),
            end_date: expect.any(String),
          },
        ],
        d_vm_data: null,
        vms: [],
      },
    });
    expect((await t.post('lpu/training-start-status', { slug: other.slug }, learner)).status).toBe(404);
    expect((await t.post('check-training-status', { slug: other.slug }, learner)).status).toBe(404);
    expect((await t.post('lpu/training-start-status', {}, learner)).body).toEqual({
      slug: ['The slug field is required.'],
    });
  });
});

describe('conference join status (basic)', () => {
  it('records join and leave with minutes capped by server time; join count and moderator flag', async () => {
    const { tr, learner, enrolmentId } = await withLearner();
    expect(await t.post('lp/get-training-join-count', { slug: tr.slug }, learner)).toEqual({
      status: 200,
      body: { count: 1, isModerator: 0, isAssing: 1 },
    });
    expect(await t.post('lp/update-training-join-status', { slug: tr.slug, is_start: 1, is_open: 1 }, learner)).toEqual(
      {
        status: 200,
        body: { message: MSG.joinRecorded },
      },
    );
    await t.post('lp/update-training-join-status', { slug: tr.slug, is_start: true }, learner);
    // the count reflects live conference connections only (test/conference-*.test.ts), not client reports
    expect((await t.post('lp/get-training-join-count', { slug: tr.slug }, learner)).body.count).toBe(1);

    // pretend the learner joined 10 minutes ago and claims 3 hours
    await t.deps.db
      .update(trainingAttendances)
      .set({ joined_at: new Date(Date.now() - 10 * 60_000) })
      .where(eq(trainingAttendances.training_user_id, enrolmentId));
    const end = await t.post('lp/update-training-join-status', { slug: tr.slug, is_end: 1, min: 3 * 3600 }, learner);
    expect(end).toEqual({ status: 200, body: { message: MSG.joinRecorded, minutes: 10 } });
    expect((await t.post('lp/get-training-join-count', { slug: tr.slug }, learner)).body.count).toBe(1);
    const users = await t.post('lp/get-training-users', { slug: tr.slug }, provider);
    expect(users.body.list[0]).toMatchObject({ join: 1, min: 10 });

    // a shorter report than the elapsed time wins
    await t.post('lp/update-training-join-status', { slug: tr.slug, is_start: 1 }, learner);
    await t.deps.db
      .update(trainingAttendances)
      .set({ joined_at: new Date(Date.now() - 30 * 60_000) })
      .where(eq(trainingAttendances.training_user_id, enrolmentId));
    const short = await t.post('lp/update-training-join-status', { slug: tr.slug, is_end: 1, min: 120 }, learner);
    expect(short.body.minutes).toBe(2);

    expect((await t.post('lp/get-training-join-count', { slug: tr.slug }, provider)).body).toEqual({
      count: 1,
      isModerator: 1,
      isAssing: 1,
    });
    expect((await t.post('lp/update-training-join-status', { slug: tr.slug, is_start: 1 }, provider)).status).toBe(200);
    expect((await t.post('lp/get-training-join-count', { slug: tr.slug }, otherProvider)).status).toBe(404);
    const stranger = await t.loginAs({ role: 'user' });
    expect((await t.post('lp/get-training-join-count', { slug: tr.slug }, stranger.token)).status).toBe(404);
    expect((await t.post('lp/update-training-join-status', { slug: tr.slug }, learner)).body).toEqual({
      is_start: ['The is start or is end field is required.'],
    });
    expect((await t.post('lp/update-training-join-status', {}, learner)).body).toEqual({
      slug: ['The slug field is required.'],
    });
  });
});
