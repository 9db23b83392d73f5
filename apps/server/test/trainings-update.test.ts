import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, services, trainings, trainingUsers } from '../src/db/schema';
import { TRAINING_EDIT_MSG } from '../src/domains/trainings/trainings';
import { question } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { inDays, makeTraining } from './trainings-fixtures';

/** /update-training (issue 32): switch the assessments on for an existing training, edit it before it starts. */

let t: TestApp;
let provider: string;
let otherProvider: string;
let org: string;
let subadmin: string;
let otherSubadmin: string;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  otherProvider = (await t.loginAs({ role: 'provider' })).token;
  const o = await orgWithOwner(t);
  org = o.token;
  subadmin = (await t.loginAs({ role: 'org_subadmin', organization_id: o.organization.id })).token;
  const other = await orgWithOwner(t);
  otherSubadmin = (await t.loginAs({ role: 'org_subadmin', organization_id: other.organization.id })).token;
  await t.deps.db.insert(services).values([
    { service: 'TRAINING (Per Day)', price: 1000 },
    { service: 'PRE-ASSESSMENT (Per Test)', price: 50 },
    { service: 'POST-ASSESSMENT (Per Test)', price: 70 },
  ]);
});
afterAll(() => t.close());

const rowOf = async (id: number) => (await t.deps.db.select().from(trainings).where(eq(trainings.id, id)))[0]!;

describe('POST /api/update-training', () => {
  it('401 without a token, 403 for roles that may not manage trainings', async () => {
    await expectGuarded(t, ['update-training'], ['provider', 'organization', 'org_subadmin'], {
      slug: 'x',
      pre_assessment: 1,
    });
  });

  it('switches the pre/post assessment on for an existing training, recomputes the cost, and the test then saves', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 4, total_training_day: 3 });
    expect(tr.cost).toBe(3000);
    const q = await t.post('add-question', question(), provider);
    expect(q.status).toBe(200);
    const test = { minute: 10, type: 1, slug: tr.slug, question_ids: [q.body.success.id] };
    const refused = await t.post('add-random-questions', test, provider);
    expect(refused.status).toBe(422);
    expect(refused.body.type[0]).toMatch(/^The training does not include a pre-assessment\. Switch it on first/);

    const res = await t.post('update-training', { slug: tr.slug, pre_assessment: 1 }, provider);
    expect(res).toEqual({
      status: 200,
      body: {
        message: TRAINING_EDIT_MSG.updated,
        id: tr.id,
        slug: tr.slug,
        cost: 3200, // 1000 × 3 + 50 × 4
        pre_assessment: 1,
        post_assessment: 0,
      },
    });
    expect(await rowOf(tr.id)).toMatchObject({ pre_assessment: 1, post_assessment: 0, cost: 3200 });
    const [audit] = await t.deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ action: 'update-training', target_type: 'training', target_id: String(tr.id) });
    expect(audit!.changes.pre_assessment).toEqual({ before: 0, after: 1 });
    expect((await t.post('add-random-questions', test, provider)).status).toBe(200);
    const details = await t.post('get-training-details', { slug: tr.slug }, provider);
    expect(details.body.success).toMatchObject({ pre_assessment: 1, post_assessment: 0 });

    // a built test keeps its switch on; the other one may go off again
    expect(await t.post('update-training', { slug: tr.slug, pre_assessment: 0 }, provider)).toEqual({
      status: 422,
      body: { pre_assessment: [TRAINING_EDIT_MSG.testBuilt(1)] },
    });
    expect((await t.post('update-training', { slug: tr.slug, post_assessment: true }, provider)).status).toBe(200);
    expect((await t.post('update-training', { slug: tr.slug, post_assessment: false }, provider)).body).toMatchObject({
      pre_assessment: 1,
      post_assessment: 0,
    });
  });

  it('edits the details of a training that has not started; an organization’s sub-admin edits the organization’s', async () => {
    const tr = await makeTraining(t, provider);
    const start = inDays(3);
    const end = inDays(6);
    const res = await t.post(
      'update-training',
      {
        slug: tr.slug,
        name: '  Kubernetes Advanced ',
        start_date: start,
        end_date: end,
        total_training_day: '4',
        number_of_participants: 12,
        description: 'Operators.',
        requirements: ['A laptop', ' '],
      },
      provider,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cost).toBe(4000);
    expect(await rowOf(tr.id)).toMatchObject({
      name: 'Kubernetes Advanced',
      slug: tr.slug,
      link: tr.link,
      start_date: new Date(start),
      end_date: new Date(end),
      total_training_day: 4,
      number_of_participants: 12,
      description: 'Operators.',
      requirements: ['A laptop'],
      pre_assessment: 0,
      post_assessment: 0,
    });

    const orgTraining = await makeTraining(t, org);
    expect(
      (await t.post('update-training', { slug: orgTraining.slug, name: 'By the sub-admin' }, subadmin)).status,
    ).toBe(200);
    expect((await rowOf(orgTraining.id)).name).toBe('By the sub-admin');
  });

  it('refuses the details once the training has started, but still switches an assessment on', async () => {
    const tr = await makeTraining(t, provider);
    await t.deps.db.update(trainings).set({ status: 1 }).where(eq(trainings.id, tr.id));
    const before = await rowOf(tr.id);
    expect(await t.post('update-training', { slug: tr.slug, name: 'Renamed', post_assessment: 1 }, provider)).toEqual({
      status: 422,
      body: { slug: [TRAINING_EDIT_MSG.started] },
    });
    expect(await rowOf(tr.id)).toEqual(before);
    const on = await t.post('update-training', { slug: tr.slug, post_assessment: 1 }, provider);
    expect(on.status).toBe(200);
    expect(await rowOf(tr.id)).toMatchObject({ name: before.name, post_assessment: 1, status: 1 });
  });

  it('another tenant’s training answers 404 as if it did not exist, and stays as it was', async () => {
    const tr = await makeTraining(t, provider);
    const orgTraining = await makeTraining(t, org);
    const before = await rowOf(tr.id);
    for (const [token, slug] of [
      [otherProvider, tr.slug],
      [subadmin, tr.slug],
      [org, tr.slug],
      [otherSubadmin, orgTraining.slug],
      [provider, orgTraining.slug],
      [provider, 'no-such-training'],
    ] as const) {
      const res = await t.post('update-training', { slug, name: 'Taken over', pre_assessment: 1 }, token);
      expect(res.status, slug).toBe(404);
    }
    expect(await rowOf(tr.id)).toEqual(before);
    expect((await rowOf(orgTraining.id)).name).not.toBe('Taken over');
  });

  it('fields the call does not take (owner, status, cost, id) are ignored, in the body or the query string', async () => {
    const tr = await makeTraining(t, provider);
    const mine = await makeTraining(t, otherProvider);
    const before = await rowOf(tr.id);
    const mineBefore = await rowOf(mine.id);
    const res = await t.post(
      'update-training',
      {
        slug: tr.slug,
        name: 'Renamed only',
        id: mine.id,
        owner_user_id: mineBefore.owner_user_id,
        organization_id: 1,
        status: 2,
        cost: 0,
        link: 'taken',
      },
      provider,
    );
    expect(res.status).toBe(200);
    const viaQuery = await t.app.inject({
      method: 'POST',
      url: `/api/update-training?slug=${mine.slug}&id=${mine.id}`,
      headers: { authorization: `Bearer ${provider}` },
      payload: { slug: tr.slug, description: 'Described only' },
    });
    expect(viaQuery.statusCode).toBe(200);
    const after = await rowOf(tr.id);
    expect(after).toMatchObject({
      name: 'Renamed only',
      description: 'Described only',
      owner_user_id: before.owner_user_id,
      organization_id: before.organization_id,
      status: before.status,
      cost: before.cost,
      link: before.link,
    });
    // the other provider's training, named by id and in the query string, is as it was
    expect(await rowOf(mine.id)).toEqual(mineBefore);
  });

  it('refuses bad input field by field and changes nothing', async () => {
    const tr = await makeTraining(t, provider);
    const before = await rowOf(tr.id);
    const bad = await t.post(
      'update-training',
      {
        slug: tr.slug,
        name: '   ',
        start_date: 'tomorrow',
        total_training_day: 0,
        number_of_participants: 'many',
        pre_assessment: 'yes',
      },
      provider,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body).sort()).toEqual([
      'name',
      'number_of_participants',
      'pre_assessment',
      'start_date',
      'total_training_day',
    ]);
    expect(bad.body.start_date).toEqual(['The start date is not a valid date.']);
    // a start in the past, an end before the stored start, fewer places than learners enrolled
    expect((await t.post('update-training', { slug: tr.slug, start_date: inDays(-1) }, provider)).body).toEqual({
      start_date: ['The start date must be a date after or equal to now.'],
    });
    expect((await t.post('update-training', { slug: tr.slug, end_date: inDays(1) }, provider)).body).toEqual({
      end_date: [TRAINING_EDIT_MSG.endBeforeStart],
    });
    const learner = await t.loginAs({ role: 'user' });
    const other = await t.loginAs({ role: 'user' });
    await t.deps.db.insert(trainingUsers).values([
      { training_id: tr.id, user_id: learner.user.id },
      { training_id: tr.id, user_id: other.user.id },
    ]);
    expect((await t.post('update-training', { slug: tr.slug, number_of_participants: 1 }, provider)).body).toEqual({
      number_of_participants: [TRAINING_EDIT_MSG.belowEnrolled(2)],
    });
    // nothing to change, and no slug
    expect(await t.post('update-training', { slug: tr.slug }, provider)).toEqual({
      status: 422,
      body: { slug: [TRAINING_EDIT_MSG.nothingToChange] },
    });
    expect((await t.post('update-training', { name: 'X' }, provider)).body).toEqual({
      slug: ['The slug field is required.'],
    });
    expect(await rowOf(tr.id)).toEqual(before);
  });
});
