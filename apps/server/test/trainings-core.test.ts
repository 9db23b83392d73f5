import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services, syllabusTopics, trainings } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { inDays, makeTraining, trainingBody } from './trainings-fixtures';

let t: TestApp;
let provider: string;
let providerId: number;
let otherProvider: string;
let org: string;
let subadmin: string;
const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  providerId = p.user.id;
  otherProvider = (await t.loginAs({ role: 'provider' })).token;
  const o = await orgWithOwner(t);
  org = o.token;
  subadmin = (await t.loginAs({ role: 'org_subadmin', organization_id: o.organization.id })).token;
});
afterAll(() => t.close());

describe('access', () => {
  it('401 without a token and 403 for the roles that may not manage trainings', async () => {
    await expectGuarded(
      t,
      [
        'create-training',
        'all-trainings',
        'completed-trainings',
        'lp-public-training',
        'delete-trainings',
        'get-dashboard-data',
      ],
      [...MANAGERS],
      { ...trainingBody(), id: 1, slug: 'x' },
    );
    await expectGuarded(t, ['get-training-details'], [...MANAGERS, 'trainer'], { slug: 'x' });
  });
});

describe('POST /api/create-training', () => {
  it('creates a provider training with slug, meeting link, non-empty requirements and the server-computed cost', async () => {
    await t.deps.db.insert(services).values([
      { service: 'TRAINING (Per Day)', price: 1000 },
      { service: 'PRE-ASSESSMENT (Per Test)', price: 50 },
      { service: 'POST-ASSESSMENT (Per Test)', price: 70.5 },
    ]);
    const res = await t.post(
      'create-training',
      trainingBody({ pre_assessment: true, post_assessment: 1, number_of_participants: '4', total_training_day: '3' }),
      provider,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 1000 × 3 days + (50 + 70.5) × 4 participants
    expect(res.body).toEqual({
      message: MSG.trainingCreated,
      id: expect.any(Number),
      slug: expect.stringMatching(/^kubernetes-basics-/),
      link: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      cost: 3482,
    });
    const [row] = await t.deps.db.select().from(trainings).where(eq(trainings.id, res.body.id));
    expect(row).toMatchObject({
      owner_user_id: providerId,
      organization_id: null,
      requirements: ['A laptop', 'Docker installed'],
      status: 0,
      is_public: 0,
      pre_assessment: 1,
      post_assessment: 1,
      cost: 3482,
    });
    const withoutAssessments = await makeTraining(t, provider);
    expect(withoutAssessments.cost).toBe(3000);
    expect(withoutAssessments.link).not.toBe(res.body.link);
  });

  it('an organization training belongs to the organization, shared with its sub-admins', async () => {
    const created = await makeTraining(t, subadmin, { name: 'Org Training' });
    const [row] = await t.deps.db.select().from(trainings).where(eq(trainings.id, created.id));
    expect(row!.organization_id).not.toBeNull();
    expect(row!.owner_user_id).toBeNull();
    const list = await t.post('all-trainings', undefined, org);
    expect(list.body.list.map((r: { slug: string }) => r.slug)).toContain(created.slug);
  });

  it('422 for each field, for a start in the past and an end before the start', async () => {
    const res = await t.post('create-training', {}, provider);
    expect(res).toEqual({
      status: 422,
      body: {
        name: ['The name field is required.'],
        start_date: ['The start date field is required.'],
        end_date: ['The end date field is required.'],
        total_training_day: ['The total training day field is required.'],
        number_of_participants: ['The number of participants field is required.'],
        description: ['The description field is required.'],
      },
    });
    const bad = await t.post(
      'create-training',
      trainingBody({
        start_date: inDays(-1),
        end_date: inDays(-2),
        total_training_day: 0,
        number_of_participants: 'many',
        requirements: 'laptop',
      }),
      provider,
    );
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      start_date: ['The start date must be a date after or equal to now.'],
      end_date: ['The end date must be a date after or equal to start date.'],
      total_training_day: ['The total training day must be at least 1.'],
      number_of_participants: [expect.any(String)],
      requirements: ['The requirements must be an array.'],
    });
    const notDate = await t.post('create-training', trainingBody({ start_date: 'tomorrow' }), provider);
    expect(notDate.body).toEqual({ start_date: ['The start date is not a valid date.'] });
    const today = new Date().toISOString().slice(0, 10);
    const sameDay = await t.post('create-training', trainingBody({ start_date: today, end_date: today }), provider);
    expect(sameDay.status).toBe(200);
  });
});

describe('lists, details, public toggle and delete', () => {
  it('all-trainings lists the tenant’s upcoming trainings with counts; completed-trainings the ended ones', async () => {
    const mine = await makeTraining(t, provider, { name: 'Upcoming One' });
    const theirs = await makeTraining(t, otherProvider, { name: 'Not Mine' });
    const ended = await makeTraining(t, provider, { name: 'Ended' });
    await t.deps.db
      .update(trainings)
      .set({ start_date: new Date(Date.now() - 5 * 86400_000), end_date: new Date(Date.now() - 86400_000) })
      .where(eq(trainings.id, ended.id));
    await t.deps.db.insert(syllabusTopics).values({ training_id: mine.id, session_topic: 'Intro' });

    const list = await t.post('all-trainings', undefined, provider);
    expect(list.status).toBe(200);
    const slugs = list.body.list.map((r: { slug: string }) => r.slug);
    expect(slugs).toContain(mine.slug);
    expect(slugs).not.toContain(theirs.slug);
    expect(slugs).not.toContain(ended.slug);
    const row = list.body.list.find((r: { slug: string }) => r.slug === mine.slug);
    expect(row).toEqual({
      id: mine.id,
      name: 'Upcoming One',
      slug: mine.slug,
      link: mine.link,
      start_date: expect.any(String),
      end_date: expect.any(String),
      total_training_day: 3,
      number_of_participants: 10,
      total_participants: 0,
      is_public: 0,
      status: 0,
      totalTopics: 1,
      is_download_certificate: 0,
      description: 'Pods, services and deployments.',
      requirements: ['A laptop', 'Docker installed'],
      cost: expect.any(Number),
      pre_assessment: 0,
      post_assessment: 0,
    });

    const done = await t.post('completed-trainings', undefined, provider);
    expect(done.body.list.map((r: { slug: string }) => r.slug)).toEqual([ended.slug]);
    expect((await t.post('completed-trainings', undefined, otherProvider)).body.list).toEqual([]);

    const details = await t.post('get-training-details', { slug: mine.slug }, provider);
    expect(details).toEqual({ status: 200, body: { success: row } });
    expect((await t.post('get-training-details', { slug: mine.slug }, otherProvider)).status).toBe(404);
    expect((await t.post('get-training-details', { slug: mine.slug }, org)).status).toBe(404);
    expect((await t.post('get-training-details', {}, provider)).body).toEqual({
      slug: ['The slug field is required.'],
    });
  });

  it('lp-public-training toggles is_public; 404 for another tenant; 422 without id', async () => {
    const tr = await makeTraining(t, org);
    expect(await t.post('lp-public-training', { id: tr.id }, subadmin)).toEqual({
      status: 200,
      body: { message: 'Training is public now.', is_public: 1 },
    });
    expect(await t.post('lp-public-training', { id: String(tr.id) }, org)).toEqual({
      status: 200,
      body: { message: 'Training is private now.', is_public: 0 },
    });
    expect((await t.post('lp-public-training', { id: tr.id }, provider)).status).toBe(404);
    expect((await t.post('lp-public-training', {}, provider)).body).toEqual({ id: ['The id field is required.'] });
  });

  it('delete-trainings deletes a not-started training; 422 once started; 404 across tenants', async () => {
    const tr = await makeTraining(t, provider);
    expect((await t.post('delete-trainings', { slug: tr.slug }, otherProvider)).status).toBe(404);
    expect((await t.post('delete-trainings', { slug: tr.slug }, subadmin)).status).toBe(404);
    expect(await t.post('delete-trainings', { slug: tr.slug }, provider)).toEqual({
      status: 200,
      body: { message: MSG.trainingDeleted },
    });
    expect((await t.post('get-training-details', { slug: tr.slug }, provider)).status).toBe(404);

    const started = await makeTraining(t, provider);
    await t.deps.db.update(trainings).set({ status: 1 }).where(eq(trainings.id, started.id));
    expect(await t.post('delete-trainings', { slug: started.slug }, provider)).toEqual({
      status: 422,
      body: { slug: [MSG.trainingAlreadyStarted] },
    });
    expect((await t.post('delete-trainings', {}, provider)).body).toEqual({ slug: ['The slug field is required.'] });
  });

  it('get-dashboard-data: upcoming trainings of the tenant and counts', async () => {
    const fresh = await t.loginAs({ role: 'provider' });
    const a = await makeTraining(t, fresh.token, { name: 'Dash A' });
    const res = await t.post('get-dashboard-data', undefined, fresh.token);
    expect(res).toEqual({
      status: 200,
      body: {
        list: [
          { id: a.id, name: 'Dash A', slug: a.slug, start_date: expect.any(String), end_date: expect.any(String) },
        ],
        total_trainings: 1,
        upcoming_trainings: 1,
        completed_trainings: 0,
        total_participants: 0,
      },
    });
  });
});
