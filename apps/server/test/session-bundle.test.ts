import { CERT_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questions, syllabusTopics, trainingAttendances, trainingUsers } from '../src/db/schema';
import { assessedTraining, type Bank, seedBank } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded } from './org-fixtures';

let t: TestApp;
let provider: string;
let bank: Bank;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  bank = await seedBank(t, provider, 2, 'Bundle');
});
afterAll(() => t.close());

const correctOf = async (id: number) =>
  (await t.deps.db.select({ c: questions.correct_option }).from(questions).where(eq(questions.id, id)))[0]!.c;

/** The learner takes the test, answering the first `right` questions correctly and the rest wrongly. */
async function takeTest(slug: string, type: number, ids: number[], right: number, token: string) {
  const s = await t.post('lpu/start-assessment', { slug, type }, token);
  expect(s.status).toBe(200);
  for (const [i, id] of ids.entries()) {
    const correct = await correctOf(id);
    const answer = i < right ? correct : (correct % 4) + 1;
    await t.post('lpu/save-assessment-answer', { attempt_id: s.body.attempt_id, question_id: id, answer }, token);
  }
  expect((await t.post('lpu/submit-assessment', { attempt_id: s.body.attempt_id }, token)).status).toBe(200);
}

/** A training with a 2-question pre-test and post-test and enrolled learners. */
async function scenario(names: string[]) {
  const tr = await assessedTraining(t, provider);
  const ids = [bank.Beginner[0]!, bank.Beginner[1]!];
  for (const type of [1, 2])
    expect(
      (await t.post('add-random-questions', { minute: 10, type, slug: tr.slug, question_ids: ids }, provider)).status,
    ).toBe(200);
  const learners: { token: string; id: number; enrolment: number }[] = [];
  for (const first_name of names) {
    const l = await t.loginAs({ role: 'user', first_name, last_name: 'Learner' });
    const [e] = await t.deps.db
      .insert(trainingUsers)
      .values({ training_id: tr.id, user_id: l.user.id, is_download_certificate: 1 })
      .returning();
    learners.push({ token: l.token, id: l.user.id, enrolment: e!.id });
  }
  return { tr, ids, learners };
}

const attended = (trainingId: number, l: { id: number; enrolment: number }, minutes: number) =>
  t.deps.db
    .insert(trainingAttendances)
    .values({ training_id: trainingId, training_user_id: l.enrolment, user_id: l.id, left_at: new Date(), minutes });

describe('/get-session-bundle', () => {
  it('401 without a token, 403 for every role but the managers', async () => {
    await expectGuarded(t, ['get-session-bundle'], ['provider', 'organization', 'org_subadmin'], { slug: 'x' });
  });

  it('per learner the attended minutes, pre and post percent and gain; the recordings; paged and sorted', async () => {
    const { tr, ids, learners } = await scenario(['Asha', 'Bala']);
    const [asha, bala] = learners as [(typeof learners)[0], (typeof learners)[0]];
    await attended(tr.id, asha, 40);
    await attended(tr.id, asha, 20);
    await attended(tr.id, bala, 5);
    await takeTest(tr.slug, 1, ids, 1, asha.token); // 50 %
    await takeTest(tr.slug, 2, ids, 2, asha.token); // 100 %
    await takeTest(tr.slug, 1, ids, 0, bala.token); // 0 %, no post-test
    const [topic] = await t.deps.db
      .insert(syllabusTopics)
      .values({ training_id: tr.id, session_topic: 'Pods and services', recording_url: '/api/recording-file/1' })
      .returning();
    await t.deps.db.insert(syllabusTopics).values({ training_id: tr.id, session_topic: 'Not recorded' });

    const res = await t.post('get-session-bundle', { slug: tr.slug, sort: '-minutes' }, provider);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, training_name: expect.any(String) });
    expect(res.body.list).toEqual([
      {
        user_id: asha.id,
        name: 'Asha Learner',
        email: expect.any(String),
        minutes: 60,
        pre_percent: 50,
        post_percent: 100,
        gain: 50,
      },
      {
        user_id: bala.id,
        name: 'Bala Learner',
        email: expect.any(String),
        minutes: 5,
        pre_percent: 0,
        post_percent: null,
        gain: null,
      },
    ]);
    expect(res.body.recordings).toEqual([
      { topic_id: topic!.id, topic: 'Pods and services', page: `/recording/${btoa(String(topic!.id))}` },
    ]);

    const paged = await t.post('get-session-bundle', { slug: tr.slug, sort: 'minutes', per_page: 1 }, provider);
    expect(paged.body).toMatchObject({ total: 2, per_page: 1 });
    expect(paged.body.list.map((r: { user_id: number }) => r.user_id)).toEqual([bala.id]);
    const searched = await t.post('get-session-bundle', { slug: tr.slug, search: 'asha' }, provider);
    expect(searched.body.list.map((r: { user_id: number }) => r.user_id)).toEqual([asha.id]);
  });

  it('another tenant gets 404; a missing slug is 422', async () => {
    const { tr } = await scenario([]);
    const other = await t.loginAs({ role: 'provider' });
    expect((await t.post('get-session-bundle', { slug: tr.slug }, other.token)).status).toBe(404);
    const org = await t.loginAs({ role: 'organization', organization_id: (await t.createOrganization()).id });
    expect((await t.post('get-session-bundle', { slug: tr.slug }, org.token)).status).toBe(404);
    const bad = await t.post('get-session-bundle', {}, provider);
    expect(bad.status).toBe(422);
    expect(bad.body.slug).toBeDefined();
  });
});

describe('a certificate that needs a minimum post-test score as well as attendance', () => {
  it('below the minimum score: none; exactly at it: issued; the attendance rule still applies', async () => {
    const p = await t.loginAs({ role: 'provider' });
    const ids = await seedBank(t, p.token, 2, 'Cert');
    const tr = await assessedTraining(t, p.token);
    const qs = [ids.Beginner[0]!, ids.Beginner[1]!];
    await t.post('add-random-questions', { minute: 5, type: 2, slug: tr.slug, question_ids: qs }, p.token);
    const settings = { issuer_name: 'Acme', signatory_name: 'Meera', signatory_title: 'Head' };
    expect(
      (
        await t.post(
          'update-certificate-settings',
          { ...settings, min_attendance_percent: 1, min_post_score_percent: 50 },
          p.token,
        )
      ).status,
    ).toBe(200);
    const enrol = async (first_name: string) => {
      const l = await t.loginAs({ role: 'user', first_name });
      const [e] = await t.deps.db
        .insert(trainingUsers)
        .values({ training_id: tr.id, user_id: l.user.id, is_download_certificate: 1 })
        .returning();
      return { token: l.token, id: l.user.id, enrolment: e!.id };
    };
    const below = await enrol('Below');
    const exact = await enrol('Exact');
    const absent = await enrol('Absent');
    // a whole day of attendance is well above 1 % of any schedule
    for (const l of [below, exact]) await attended(tr.id, l, 24 * 60 * 30);
    await takeTest(tr.slug, 2, qs, 0, below.token);
    await takeTest(tr.slug, 2, qs, 1, exact.token);
    await takeTest(tr.slug, 2, qs, 2, absent.token);
    const cert = (token: string) => t.post('lpu/download-certificate', { slug: tr.slug }, token);
    const refused = await cert(below.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(CERT_MSG.postScoreTooLow(0, 50));
    expect((await cert(exact.token)).status).toBe(200);
    const noAttendance = await cert(absent.token);
    expect(noAttendance.status).toBe(403);
    expect(noAttendance.body.message).toMatch(/attend/i);
  });
});
