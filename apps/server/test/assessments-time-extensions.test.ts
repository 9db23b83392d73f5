import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessedTraining, type Bank, enrolledLearner, seedBank } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';

// Extra time per learner on a training's tests (issue 21): set by the provider, applied when an
// attempt starts, shown to the learner in the test's minutes.
let t: TestApp;
let provider: string;
let bank: Bank;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  bank = await seedBank(t, provider, 3, 'Extend');
});
afterAll(() => t.close());

/** A training with a 10-minute pre-test of three questions. */
async function tenMinuteTest() {
  const tr = await assessedTraining(t, provider);
  const ids = [bank.Beginner[0]!, bank.Intermediate[0]!, bank.Advanced[0]!];
  const res = await t.post('add-random-questions', { minute: 10, type: 1, slug: tr.slug, question_ids: ids }, provider);
  expect(res.status).toBe(200);
  return tr;
}

describe('time extensions on tests', () => {
  it('gives one learner time and a half: the list, the test minutes and the attempt deadline say so; others keep the time', async () => {
    const tr = await tenMinuteTest();
    const needs = await enrolledLearner(t, tr.id);
    const other = await enrolledLearner(t, tr.id);
    const set = await t.post(
      'set-assessment-time-extension',
      { slug: tr.slug, user_id: needs.user.id, extra_percent: 50 },
      provider,
    );
    expect(set.status).toBe(200);

    const list = await t.post('get-assessment-time-extensions', { slug: tr.slug }, provider);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, page: 1 });
    expect(list.body.list).toEqual([
      { user_id: needs.user.id, name: expect.any(String), email: needs.user.email, extra_percent: 50 },
    ]);

    const mine = await t.post('lpu/get-assessments', { slug: tr.slug }, needs.token);
    expect(mine.body.list[0]).toMatchObject({ minute: 15, extra_percent: 50 });
    const theirs = await t.post('lpu/get-assessments', { slug: tr.slug }, other.token);
    expect(theirs.body.list[0].minute).toBe(10);
    expect(theirs.body.list[0].extra_percent).toBeUndefined();

    const start = await t.post('lpu/start-assessment', { slug: tr.slug, type: 1 }, needs.token);
    expect(start.status).toBe(200);
    expect(start.body.total_seconds).toBe(900);
    expect(start.body.remaining_seconds).toBeGreaterThan(895);
    const plain = await t.post('lpu/start-assessment', { slug: tr.slug, type: 1 }, other.token);
    expect(plain.body.total_seconds).toBe(600);
    expect(plain.body.remaining_seconds).toBeLessThanOrEqual(600);
  });

  it('an attempt already running keeps its deadline; 0 removes the extension', async () => {
    const tr = await tenMinuteTest();
    const l = await enrolledLearner(t, tr.id);
    const first = await t.post('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    expect(first.body.total_seconds).toBe(600);
    await t.post('set-assessment-time-extension', { slug: tr.slug, user_id: l.user.id, extra_percent: 100 }, provider);
    const resumed = await t.post('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    expect(resumed.body.attempt_id).toBe(first.body.attempt_id);
    expect(resumed.body.total_seconds).toBe(600);
    expect((await t.post('lpu/get-assessments', { slug: tr.slug }, l.token)).body.list[0].minute).toBe(20);

    const off = await t.post(
      'set-assessment-time-extension',
      { slug: tr.slug, user_id: l.user.id, extra_percent: 0 },
      provider,
    );
    expect(off.status).toBe(200);
    expect((await t.post('get-assessment-time-extensions', { slug: tr.slug }, provider)).body).toMatchObject({
      list: [],
      total: 0,
    });
    expect((await t.post('lpu/get-assessments', { slug: tr.slug }, l.token)).body.list[0].minute).toBe(10);
  });

  it('takes 0 to 200 percent: 200 and 0 pass, 201 and -1 are refused per field', async () => {
    const tr = await tenMinuteTest();
    const l = await enrolledLearner(t, tr.id);
    const put = (extra_percent: unknown) =>
      t.post('set-assessment-time-extension', { slug: tr.slug, user_id: l.user.id, extra_percent }, provider);
    expect((await put(200)).status).toBe(200);
    expect((await t.post('lpu/get-assessments', { slug: tr.slug }, l.token)).body.list[0].minute).toBe(30);
    const over = await put(201);
    expect(over.status).toBe(422);
    expect(over.body.extra_percent).toBeDefined();
    const under = await put(-1);
    expect(under.status).toBe(422);
    expect(under.body.extra_percent).toBeDefined();
    expect((await put('')).status).toBe(422);
    expect((await put(0)).status).toBe(200);
  });

  it('only for learners of the training, only by its own managers', async () => {
    const tr = await tenMinuteTest();
    const enrolled = await enrolledLearner(t, tr.id);
    const stranger = await t.loginAs({ role: 'user' });
    const notEnrolled = await t.post(
      'set-assessment-time-extension',
      { slug: tr.slug, user_id: stranger.user.id, extra_percent: 50 },
      provider,
    );
    expect(notEnrolled.status).toBe(422);
    expect(notEnrolled.body.user_id).toBeDefined();

    const body = { slug: tr.slug, user_id: enrolled.user.id, extra_percent: 50 };
    const otherProvider = (await t.loginAs({ role: 'provider' })).token;
    expect((await t.post('set-assessment-time-extension', body, otherProvider)).status).toBe(404);
    expect((await t.post('get-assessment-time-extensions', { slug: tr.slug }, otherProvider)).status).toBe(404);
    expect((await t.post('set-assessment-time-extension', body, enrolled.token)).status).toBe(403);
    expect((await t.post('get-assessment-time-extensions', { slug: tr.slug }, enrolled.token)).status).toBe(403);
    expect((await t.post('set-assessment-time-extension', body)).status).toBe(401);
  });

  it('pages, searches and sorts the learners with extra time', async () => {
    const tr = await tenMinuteTest();
    const learners = [
      await enrolledLearner(t, tr.id),
      await enrolledLearner(t, tr.id),
      await enrolledLearner(t, tr.id),
    ];
    for (const [i, l] of learners.entries()) {
      await t.post(
        'set-assessment-time-extension',
        { slug: tr.slug, user_id: l.user.id, extra_percent: (i + 1) * 25 },
        provider,
      );
    }
    const page = await t.post(
      'get-assessment-time-extensions',
      { slug: tr.slug, per_page: 2, page: 2, sort: '-extra_percent' },
      provider,
    );
    expect(page.body).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.body.list.map((r: { extra_percent: number }) => r.extra_percent)).toEqual([25]);
    const found = await t.post(
      'get-assessment-time-extensions',
      { slug: tr.slug, search: learners[1]!.user.email },
      provider,
    );
    expect(found.body.list.map((r: { user_id: number }) => r.user_id)).toEqual([learners[1]!.user.id]);
    expect((await t.post('get-assessment-time-extensions', { slug: tr.slug, sort: 'email' }, provider)).status).toBe(
      422,
    );
  });
});
