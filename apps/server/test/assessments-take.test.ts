import { createRequire } from 'node:module';
import { CERT_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as XLSXTypes from 'xlsx';
import { assessmentAttempts, questions, trainingUsers } from '../src/db/schema';
import { drawFor } from '../src/domains/assessments/draw';
import { assessedTraining, type Bank, enrolledLearner, seedBank } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;

let t: TestApp;
let provider: string;
let other: string;
let bank: Bank;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  other = (await t.loginAs({ role: 'provider' })).token;
  bank = await seedBank(t, provider, 5, 'Take');
});
afterAll(() => t.close());

/** A learner call: the raw JSON text is checked for the correct option before it is parsed. */
async function learnerCall(path: string, body: unknown, token: string, opts: { submitted?: boolean } = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body as object,
  });
  if (!opts.submitted) expect(res.body, `${path} leaks the correct option`).not.toMatch(/correct/i);
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

const correctOf = async (id: number) =>
  (await t.deps.db.select({ c: questions.correct_option }).from(questions).where(eq(questions.id, id)))[0]!.c;

async function randomTest(over: Record<string, unknown> = {}, type = 1) {
  const tr = await assessedTraining(t, provider);
  const ids = [bank.Beginner[0]!, bank.Intermediate[0]!, bank.Advanced[0]!, bank.Beginner[1]!];
  const res = await t.post(
    'add-random-questions',
    { minute: 10, type, slug: tr.slug, question_ids: ids, ...over },
    provider,
  );
  expect(res.status).toBe(200);
  return { tr, ids };
}

describe('taking a test', () => {
  it('starts, saves answers, resumes with the real time left, submits; never shows the correct option before', async () => {
    const { tr, ids } = await randomTest({ show_answers: 1 });
    const l = await enrolledLearner(t, tr.id);
    const mine = await learnerCall('lpu/get-assessments', { slug: tr.slug }, l.token);
    expect(mine.body.list).toEqual([
      { type: 1, minute: 10, total_questions: 4, status: 'not started', can_start: 1, percent: null },
    ]);
    const start = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ type: 1, training_name: tr.slug ? expect.any(String) : '', total_seconds: 600 });
    expect(start.body.remaining_seconds).toBeGreaterThanOrEqual(599);
    expect(start.body.questions.map((q: { id: number }) => q.id)).toEqual(ids);
    expect(Object.keys(start.body.questions[0]).sort()).toEqual([
      'answer',
      'id',
      'option1',
      'option2',
      'option3',
      'option4',
      'question',
    ]);
    const attempt = start.body.attempt_id;
    const right0 = await correctOf(ids[0]!);
    const wrong1 = ((await correctOf(ids[1]!)) % 4) + 1;
    expect(
      (
        await learnerCall(
          'lpu/save-assessment-answer',
          { attempt_id: attempt, question_id: ids[0], answer: right0 },
          l.token,
        )
      ).status,
    ).toBe(200);
    const saved = await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: attempt, question_id: ids[1], answer: wrong1 },
      l.token,
    );
    expect(saved.body.message).toBe('Answer saved.');
    // pretend 100 seconds passed: the reload answers the same attempt with the time really left
    await t.deps.db
      .update(assessmentAttempts)
      .set({ deadline_at: new Date(Date.now() + 500_000) })
      .where(eq(assessmentAttempts.id, attempt));
    const resumed = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    expect(resumed.body.attempt_id).toBe(attempt);
    expect(resumed.body.remaining_seconds).toBeGreaterThanOrEqual(499);
    expect(resumed.body.remaining_seconds).toBeLessThanOrEqual(500);
    expect(resumed.body.questions.map((q: { answer: number | null }) => q.answer)).toEqual([
      right0,
      wrong1,
      null,
      null,
    ]);
    expect((await learnerCall('lpu/get-assessments', { slug: tr.slug }, l.token)).body.list[0].status).toBe(
      'in progress',
    );
    expect((await learnerCall('lpu/assessment-result', { slug: tr.slug, type: 1 }, l.token)).status).toBe(404);
    const done = await learnerCall('lpu/submit-assessment', { attempt_id: attempt }, l.token, { submitted: true });
    expect(done.body).toMatchObject({ score: 1, total: 4, percent: 25 });
    expect(done.body.answers.map((a: { is_correct: number }) => a.is_correct)).toEqual([1, 0, 0, 0]);
    expect(done.body.answers[0].correct_option).toBe(right0);
    // the texts of the answers beside their numbers (issue 32): the options are the fixture's
    const text = (n: number) => ['A VM', 'A group of containers', 'A network', 'A disk'][n - 1];
    expect(done.body.answers[0]).toMatchObject({
      answer: right0,
      answer_text: text(right0),
      correct_text: text(right0),
    });
    expect(done.body.answers[1]).toMatchObject({ answer: wrong1, answer_text: text(wrong1) });
    expect(done.body.answers[1].correct_text).toBe(text(await correctOf(ids[1]!)));
    expect(done.body.answers[2]).toMatchObject({ answer: null, answer_text: null });
    const result = await learnerCall('lpu/assessment-result', { slug: tr.slug, type: 1 }, l.token, { submitted: true });
    expect(result.body).toMatchObject({ attempt_id: attempt, score: 1, percent: 25 });
    const late = await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: attempt, question_id: ids[2], answer: 1 },
      l.token,
    );
    expect(late.body.attempt_id).toEqual(['The test has already been submitted.']);
  });

  it('hides which answers were right unless the manager allows it', async () => {
    const { tr, ids } = await randomTest();
    const l = await enrolledLearner(t, tr.id);
    const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: s.body.attempt_id, question_id: ids[0], answer: 1 },
      l.token,
    );
    const done = await learnerCall('lpu/submit-assessment', { attempt_id: s.body.attempt_id }, l.token);
    expect(done.body.answers).toBeNull();
    expect(JSON.stringify(done.body)).not.toMatch(/correct/);
  });

  it('refuses an answer one second after the deadline and submits what was answered; accepts one a second before', async () => {
    const { tr, ids } = await randomTest();
    const l = await enrolledLearner(t, tr.id);
    const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    const id = s.body.attempt_id;
    await t.deps.db
      .update(assessmentAttempts)
      .set({ deadline_at: new Date(Date.now() + 1500) })
      .where(eq(assessmentAttempts.id, id));
    const right = await correctOf(ids[0]!);
    expect(
      (await learnerCall('lpu/save-assessment-answer', { attempt_id: id, question_id: ids[0], answer: right }, l.token))
        .status,
    ).toBe(200);
    await t.deps.db
      .update(assessmentAttempts)
      .set({ deadline_at: new Date(Date.now() - 1000) })
      .where(eq(assessmentAttempts.id, id));
    const late = await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: id, question_id: ids[1], answer: 1 },
      l.token,
    );
    expect(late.status).toBe(422);
    expect(late.body.attempt_id).toEqual(['The time for this test is over.']);
    const [row] = await t.deps.db.select().from(assessmentAttempts).where(eq(assessmentAttempts.id, id));
    expect(row!.submitted_at).not.toBeNull();
    expect(row!.score).toBe(1);
    const mine = await learnerCall('lpu/get-assessments', { slug: tr.slug }, l.token, { submitted: true });
    expect(mine.body.list[0]).toMatchObject({ status: 'submitted', percent: 25, can_start: 0 });
  });

  it('an attempt left to run out is submitted at zero when the learner comes back', async () => {
    const { tr, ids } = await randomTest();
    const l = await enrolledLearner(t, tr.id);
    const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: s.body.attempt_id, question_id: ids[0], answer: await correctOf(ids[0]!) },
      l.token,
    );
    await t.deps.db
      .update(assessmentAttempts)
      .set({ deadline_at: new Date(Date.now() - 1000) })
      .where(eq(assessmentAttempts.id, s.body.attempt_id));
    const again = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    expect(again.status).toBe(422);
    expect(again.body.type).toEqual(['You have already taken this test.']);
    const result = await learnerCall('lpu/assessment-result', { slug: tr.slug, type: 1 }, l.token);
    expect(result.body).toMatchObject({ score: 1, total: 4 });
  });

  it('one attempt per learner and test unless the manager allows another', async () => {
    const { tr } = await randomTest();
    const l = await enrolledLearner(t, tr.id);
    const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    await learnerCall('lpu/submit-assessment', { attempt_id: s.body.attempt_id }, l.token);
    expect((await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token)).status).toBe(422);
    expect(
      (await t.post('allow-assessment-retake', { slug: tr.slug, type: 1, user_id: l.user.id }, other)).status,
    ).toBe(404);
    const allow = await t.post('allow-assessment-retake', { slug: tr.slug, type: 1, user_id: l.user.id }, provider);
    expect(allow).toEqual({ status: 200, body: { message: 'Record updated successfully!' } });
    const second = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    expect(second.status).toBe(200);
    expect(second.body.attempt_id).not.toBe(s.body.attempt_id);
    expect(second.body.questions.every((q: { answer: number | null }) => q.answer === null)).toBe(true);
    // the allowance is used up by that start
    await learnerCall('lpu/submit-assessment', { attempt_id: second.body.attempt_id }, l.token);
    expect((await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token)).status).toBe(422);
    const none = await t.post('allow-assessment-retake', { slug: tr.slug, type: 2, user_id: l.user.id }, provider);
    expect(none.status).toBe(404);
  });

  it('404 for a learner not enrolled, a test not built, another learner’s attempt; 422 per field', async () => {
    const { tr, ids } = await randomTest();
    const l = await enrolledLearner(t, tr.id);
    const stranger = await t.loginAs({ role: 'user' });
    expect((await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, stranger.token)).status).toBe(404);
    expect((await learnerCall('lpu/get-assessments', { slug: tr.slug }, stranger.token)).status).toBe(404);
    expect((await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 2 }, l.token)).status).toBe(404);
    const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token);
    const tr2 = await assessedTraining(t, provider);
    const intruder = await enrolledLearner(t, tr2.id);
    expect(
      (
        await learnerCall(
          'lpu/save-assessment-answer',
          { attempt_id: s.body.attempt_id, question_id: ids[0], answer: 1 },
          intruder.token,
        )
      ).status,
    ).toBe(404);
    expect((await learnerCall('lpu/submit-assessment', { attempt_id: s.body.attempt_id }, intruder.token)).status).toBe(
      404,
    );
    const bad = await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: s.body.attempt_id, question_id: ids[0], answer: 5 },
      l.token,
    );
    expect(bad.body.answer).toEqual(['The answer must not be greater than 4.']);
    expect(
      (
        await learnerCall(
          'lpu/save-assessment-answer',
          { attempt_id: s.body.attempt_id, question_id: ids[0], answer: 4 },
          l.token,
        )
      ).status,
    ).toBe(200);
    const notIn = await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: s.body.attempt_id, question_id: bank.Advanced![4], answer: 1 },
      l.token,
    );
    expect(notIn.body.question_id).toEqual(['The question is not part of this test.']);
    const missing = await learnerCall('lpu/save-assessment-answer', {}, l.token);
    expect(Object.keys(missing.body).sort()).toEqual(['answer', 'attempt_id', 'question_id']);
    expect((await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 3 }, l.token)).body.type).toEqual([
      'The selected type is invalid.',
    ]);
  });
});

describe('the automatic draw', () => {
  it('gives each learner the asked counts per level, no duplicates, their own order, reproducible from the seed', async () => {
    const tr = await assessedTraining(t, provider);
    const res = await t.post(
      'add-automatic-questions',
      {
        type: 2,
        languge_identified: 'English',
        beginner_question: 3,
        intermediate_question: 2,
        advanced_question: 1,
        slug: tr.slug,
        minute: 15,
      },
      provider,
    );
    expect(res.status).toBe(200);
    const level = new Map<number, string>();
    for (const [lv, ids] of Object.entries(bank)) for (const id of ids) level.set(id, lv);
    const orders: string[] = [];
    for (let i = 0; i < 4; i++) {
      const l = await enrolledLearner(t, tr.id);
      const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 2 }, l.token);
      const ids: number[] = s.body.questions.map((q: { id: number }) => q.id);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
      const counts = { Beginner: 0, Intermediate: 0, Advanced: 0 } as Record<string, number>;
      for (const id of ids) counts[level.get(id)!]! += 1;
      expect(counts).toEqual({ Beginner: 3, Intermediate: 2, Advanced: 1 });
      orders.push(ids.join(','));
      // the same learner resuming gets the same questions in the same order
      const again = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 2 }, l.token);
      expect(again.body.questions.map((q: { id: number }) => q.id)).toEqual(ids);
    }
    expect(new Set(orders).size).toBeGreaterThan(1);
  });

  it('drawFor is a pure function of seed and learner', () => {
    const pool = { Beginner: [1, 2, 3, 4, 5], Intermediate: [6, 7, 8], Advanced: [9, 10] };
    const counts = { Beginner: 2, Intermediate: 3, Advanced: 1 };
    expect(drawFor('s', 7, pool, counts)).toEqual(drawFor('s', 7, pool, counts));
    expect(drawFor('s', 7, pool, counts)).toHaveLength(6);
    const many = new Set(Array.from({ length: 20 }, (_, u) => drawFor('s', u, pool, counts).join(',')));
    expect(many.size).toBeGreaterThan(5);
  });
});

describe('results for managers', () => {
  it('per learner pre, post and gain, class averages, per question right counts, and the .xlsx export', async () => {
    const tr = await assessedTraining(t, provider);
    const ids = [bank.Beginner[2]!, bank.Intermediate[2]!];
    await t.post('add-random-questions', { minute: 10, type: 1, slug: tr.slug, question_ids: ids }, provider);
    await t.post('add-random-questions', { minute: 10, type: 2, slug: tr.slug, question_ids: ids }, provider);
    const right = [await correctOf(ids[0]!), await correctOf(ids[1]!)];
    const wrong = right.map((r) => (r % 4) + 1);
    const take = async (token: string, type: number, answers: number[]) => {
      const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type }, token);
      for (const [i, a] of answers.entries()) {
        await learnerCall(
          'lpu/save-assessment-answer',
          { attempt_id: s.body.attempt_id, question_id: ids[i], answer: a },
          token,
        );
      }
      await learnerCall('lpu/submit-assessment', { attempt_id: s.body.attempt_id }, token);
    };
    const a = await enrolledLearner(t, tr.id);
    const b = await enrolledLearner(t, tr.id);
    await enrolledLearner(t, tr.id); // took nothing
    await take(a.token, 1, [wrong[0]!, wrong[1]!]);
    await take(a.token, 2, [right[0]!, right[1]!]);
    await take(b.token, 1, [right[0]!, wrong[1]!]);
    await take(b.token, 2, [right[0]!, wrong[1]!]);
    const res = await t.post('get-assessment-results', { slug: tr.slug }, provider);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.learners.map((r: { user_id: number }) => [r.user_id, r]));
    expect(byId.get(a.user.id)).toMatchObject({
      pre_score: 0,
      pre_percent: 0,
      post_score: 2,
      post_percent: 100,
      gain: 100,
    });
    expect(byId.get(b.user.id)).toMatchObject({ pre_score: 1, pre_percent: 50, post_percent: 50, gain: 0 });
    expect(res.body.learners).toHaveLength(3);
    expect(res.body.averages).toEqual({ pre: 25, post: 75, gain: 50 });
    expect(
      res.body.questions.map((q: { type: number; question_id: number; answered: number; right: number }) => [
        q.type,
        q.question_id,
        q.answered,
        q.right,
      ]),
    ).toEqual([
      [1, ids[0], 2, 1],
      [1, ids[1], 2, 0],
      [2, ids[0], 2, 2],
      [2, ids[1], 2, 1],
    ]);
    expect((await t.post('get-assessment-results', { slug: tr.slug }, other)).status).toBe(404);
    expect((await t.post('get-assessment-results', {}, provider)).body.slug).toEqual(['The slug field is required.']);

    const file = await t.app.inject({
      method: 'POST',
      url: '/api/export-assessment-results',
      headers: { authorization: `Bearer ${provider}` },
      payload: { slug: tr.slug },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const wb = XLSX.read(file.rawPayload, { type: 'buffer' });
    expect(wb.SheetNames).toEqual(['Learners', 'Questions']);
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Learners!);
    expect(rows.at(-1)).toMatchObject({ Name: 'Class average', 'Pre %': 25, 'Post %': 75, Gain: 50 });
    expect((await t.post('export-assessment-results', { slug: tr.slug }, other)).status).toBe(404);
    // a test with attempts can no longer be rebuilt
    const rebuild = await t.post(
      'add-random-questions',
      { minute: 10, type: 1, slug: tr.slug, question_ids: ids },
      provider,
    );
    expect(rebuild.body.type).toEqual(['Learners have already started this test; it can no longer be changed.']);
    // and a question in use cannot be deleted
    const del = await t.post('delete-question', { id: ids[0] }, provider);
    expect(del.status).toBe(422);
    expect(del.body.id).toEqual(['The question is used in an assessment and cannot be deleted.']);
  });
});

describe('the certificate can require a minimum post-test score', () => {
  it('refuses below the minimum, at the minimum it is issued; a training without a post-test is not held back', async () => {
    const p = await t.loginAs({ role: 'provider' });
    const settings = {
      issuer_name: 'Acme',
      signatory_name: 'Meera',
      signatory_title: 'Head',
      min_attendance_percent: 0,
    };
    expect(
      (await t.post('update-certificate-settings', { ...settings, min_post_score_percent: 101 }, p.token)).status,
    ).toBe(422);
    expect(
      (await t.post('update-certificate-settings', { ...settings, min_post_score_percent: 50 }, p.token)).status,
    ).toBe(200);
    expect((await t.post('get-certificate-settings', {}, p.token)).body.success.min_post_score_percent).toBe(50);
    const ids = await seedBank(t, p.token, 2, 'Cert');
    const tr = await assessedTraining(t, p.token);
    const noTest = await assessedTraining(t, p.token);
    const qs = [ids.Beginner[0]!, ids.Beginner[1]!];
    await t.post('add-random-questions', { minute: 5, type: 2, slug: tr.slug, question_ids: qs }, p.token);
    const learner = await enrolledLearner(t, tr.id);
    await t.deps.db
      .insert(trainingUsers)
      .values({ training_id: noTest.id, user_id: learner.user.id, is_download_certificate: 1 });
    await t.deps.db
      .update(trainingUsers)
      .set({ is_download_certificate: 1 })
      .where(eq(trainingUsers.user_id, learner.user.id));
    const cert = (slug: string) => t.post('lpu/download-certificate', { slug }, learner.token);
    expect((await cert(noTest.slug)).status).toBe(200);
    const before = await cert(tr.slug);
    expect(before.status).toBe(403);
    expect(before.body.message).toBe(CERT_MSG.postTestNotTaken(50));
    const s = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 2 }, learner.token);
    await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: s.body.attempt_id, question_id: qs[0], answer: ((await correctOf(qs[0]!)) % 4) + 1 },
      learner.token,
    );
    await learnerCall('lpu/submit-assessment', { attempt_id: s.body.attempt_id }, learner.token);
    expect((await cert(tr.slug)).body.message).toBe(CERT_MSG.postScoreTooLow(0, 50));
    await t.post('allow-assessment-retake', { slug: tr.slug, type: 2, user_id: learner.user.id }, p.token);
    const s2 = await learnerCall('lpu/start-assessment', { slug: tr.slug, type: 2 }, learner.token);
    await learnerCall(
      'lpu/save-assessment-answer',
      { attempt_id: s2.body.attempt_id, question_id: qs[0], answer: await correctOf(qs[0]!) },
      learner.token,
    );
    await learnerCall('lpu/submit-assessment', { attempt_id: s2.body.attempt_id }, learner.token);
    expect((await cert(tr.slug)).status).toBe(200);
  });
});

describe('starting at the same moment', () => {
  it('two tabs of one learner get one attempt; a class starting together gets one attempt each', async () => {
    const { tr } = await randomTest();
    const one = await enrolledLearner(t, tr.id);
    const tabs = await Promise.all(
      [1, 2].map(() => learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, one.token)),
    );
    expect(tabs.map((r) => r.status)).toEqual([200, 200]);
    expect(tabs[0]!.body.attempt_id).toBe(tabs[1]!.body.attempt_id);
    const class10 = await Promise.all(Array.from({ length: 10 }, () => enrolledLearner(t, tr.id)));
    const starts = await Promise.all(
      class10.map((l) => learnerCall('lpu/start-assessment', { slug: tr.slug, type: 1 }, l.token)),
    );
    expect(starts.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(starts.map((r) => r.body.attempt_id)).size).toBe(10);
    const rows = await t.deps.db.select().from(assessmentAttempts).where(eq(assessmentAttempts.user_id, one.user.id));
    expect(rows).toHaveLength(1);
  });
});
