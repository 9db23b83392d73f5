import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessmentAttempts,
  assessments,
  courseEnrolments,
  paymentItems,
  payments,
  trainingAttendances,
  trainings,
  trainingUsers,
} from '../src/db/schema';
import { makeCourse } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';

/**
 * /admin/dashboard-charts and /dashboard-charts (decision 0046): the figures are read on rows seeded
 * with known dates, so each expected number is worked out by hand below.
 */

const hex = () => randomBytes(4).toString('hex');
const now = new Date();
/** a day in the middle of the month `back` months before this one (UTC) */
const monthsAgo = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15, 12));
const key = (d: Date) => d.toISOString().slice(0, 7);
const THIS_MONTH = key(now);
const TWO_AGO = key(monthsAgo(2));
const day = 24 * 3600_000;

let t: TestApp;
type Tenant = { owner_user_id: number } | { organization_id: number };

async function training(tenant: Tenant, name: string, startsInDays: number) {
  const [row] = await t.deps.db
    .insert(trainings)
    .values({
      slug: `t-${hex()}`,
      link: `l-${hex()}`,
      name,
      start_date: new Date(Date.now() + startsInDays * day),
      end_date: new Date(Date.now() + (startsInDays + 3) * day),
      total_training_day: 3,
      number_of_participants: 30,
      ...tenant,
    })
    .returning();
  return row!;
}

async function enrol(trainingId: number, created_at = new Date()) {
  const learner = await t.createUser({ role: 'provider_user' });
  const [row] = await t.deps.db
    .insert(trainingUsers)
    .values({ training_id: trainingId, user_id: learner.id, created_at })
    .returning();
  return row!;
}

async function attend(enrolment: { id: number; training_id: number; user_id: number }, minutes: number) {
  await t.deps.db.insert(trainingAttendances).values({
    training_id: enrolment.training_id,
    training_user_id: enrolment.id,
    user_id: enrolment.user_id,
    joined_at: new Date(Date.now() - 2 * day),
    left_at: new Date(Date.now() - 2 * day + minutes * 60_000),
    minutes,
  });
}

async function pay(opts: {
  amount: number;
  refunded?: number;
  status?: number;
  paidAt?: Date;
  courseId?: number;
  purpose?: string;
}) {
  const [p] = await t.deps.db
    .insert(payments)
    .values({
      receipt_no: `R-${hex()}`,
      purpose: opts.purpose ?? 'cart',
      gateway: 'test',
      gateway_order_id: `order_${hex()}`,
      amount_paise: opts.amount,
      refunded_paise: opts.refunded ?? 0,
      status: opts.status ?? 1,
      paid_at: opts.paidAt ?? new Date(),
    })
    .returning();
  await t.deps.db.insert(paymentItems).values({
    payment_id: p!.id,
    kind: opts.courseId ? 'course' : 'certification',
    ref_id: opts.courseId ?? 1,
    name: 'item',
    amount_paise: opts.amount,
  });
}

async function test(trainingId: number, type: 1 | 2) {
  const [row] = await t.deps.db
    .insert(assessments)
    .values({ training_id: trainingId, type, mode: 'random', seconds: 600, bank: 'b', seed: hex() })
    .returning();
  return row!;
}

async function attempt(assessmentId: number, userId: number, score: number | null, submittedAgoMin: number | null) {
  await t.deps.db.insert(assessmentAttempts).values({
    assessment_id: assessmentId,
    user_id: userId,
    deadline_at: new Date(),
    total: 10,
    score,
    submitted_at: submittedAgoMin === null ? null : new Date(Date.now() - submittedAgoMin * 60_000),
  });
}

const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.loginAs({ role: 'admin' });
  const providerA = await t.loginAs({ role: 'provider' });
  const providerB = await t.loginAs({ role: 'provider' });
  const org = await t.createOrganization();
  const orgAccount = await t.loginAs({ role: 'organization', organization_id: org.id });
  const subadmin = await t.loginAs({ role: 'org_subadmin', organization_id: org.id });
  const learner = await t.loginAs({ role: 'provider_user' });
  const fresh = await t.loginAs({ role: 'provider' });
  Object.assign(ids, { a: providerA.user.id, b: providerB.user.id, org: org.id });
  Object.assign(tokens, {
    admin: admin.token,
    a: providerA.token,
    b: providerB.token,
    org: orgAccount.token,
    subadmin: subadmin.token,
    learner: learner.token,
    fresh: fresh.token,
  });

  // Provider A: a training that started 10 days ago, with 3 learners (2 this month, 1 two months
  // ago) and one enrolment 13 months ago (outside the window); 2 learners joined, 65 minutes.
  const a1 = await training({ owner_user_id: providerA.user.id }, 'A started', -10);
  const e1 = await enrol(a1.id);
  const e2 = await enrol(a1.id);
  await enrol(a1.id, monthsAgo(2));
  await enrol(a1.id, monthsAgo(13));
  await attend(e1, 30);
  await attend(e1, 15);
  await attend(e2, 20);
  // an upcoming training of A: enrolments count, but it is not in the attendance chart
  const a2 = await training({ owner_user_id: providerA.user.id }, 'A upcoming', 5);
  await enrol(a2.id);
  // pre: e1 10 % then (retaken, later) 40 %, e2 60 %, an unsubmitted attempt ignored → 50.0
  // post: e1 80 %, e2 90 % → 85.0
  const pre = await test(a1.id, 1);
  const post = await test(a1.id, 2);
  await attempt(pre.id, e1.user_id, 1, 60);
  await attempt(pre.id, e1.user_id, 4, 30);
  await attempt(pre.id, e2.user_id, 6, 30);
  await attempt(pre.id, e2.user_id, null, null);
  await attempt(post.id, e1.user_id, 8, 5);
  await attempt(post.id, e2.user_id, 9, 5);

  // A's course: a learner enrolled this month; sold for ₹499 this month, ₹1,000 less ₹250 refunded
  // two months ago, and a failed payment that does not count.
  const courseA = await makeCourse(t, { ownerId: providerA.user.id });
  await t.deps.db.insert(courseEnrolments).values({ course_id: courseA.id, user_id: e1.user_id, source: 'purchase' });
  await pay({ amount: 49_900, courseId: courseA.id });
  await pay({ amount: 100_000, refunded: 25_000, courseId: courseA.id, paidAt: monthsAgo(2) });
  await pay({ amount: 70_000, status: 2, courseId: courseA.id });

  // Provider B: 5 learners this month, a course sale of ₹200, a pre test at 100 %.
  const b1 = await training({ owner_user_id: providerB.user.id }, 'B started', -1);
  const bEnrolments = [];
  for (let i = 0; i < 5; i++) bEnrolments.push(await enrol(b1.id));
  await attend(bEnrolments[0]!, 50);
  const courseB = await makeCourse(t, { ownerId: providerB.user.id });
  await pay({ amount: 20_000, courseId: courseB.id });
  await attempt((await test(b1.id, 1)).id, bEnrolments[0]!.user_id, 10, 1);

  // The organization: one training, one learner this month.
  const o1 = await training({ organization_id: org.id }, 'Org started', -3);
  await enrol(o1.id);

  // The platform also sold a certification (₹300) this month.
  await pay({ amount: 30_000 });
});

afterAll(async () => {
  await t?.close();
});

const month = (series: { month: string }[], m: string) => series.find((r) => r.month === m);

describe('/dashboard-charts: a manager sees its tenant', () => {
  it("gives a provider its own enrolments, course revenue, attendance and pre/post scores, never another tenant's", async () => {
    const res = await t.post('dashboard-charts', {}, tokens.a);
    expect(res.status).toBe(200);
    const c = res.body;
    expect(c.enrolments).toHaveLength(12);
    expect(c.enrolments.at(-1).month).toBe(THIS_MONTH);
    // 2 + 1 (upcoming) live enrolments and 1 course enrolment this month; 1 two months ago
    expect(month(c.enrolments, THIS_MONTH)).toEqual({ month: THIS_MONTH, trainings: 3, courses: 1 });
    expect(month(c.enrolments, TWO_AGO)).toEqual({ month: TWO_AGO, trainings: 1, courses: 0 });
    const total = c.enrolments.reduce((n: number, r: { trainings: number }) => n + r.trainings, 0);
    expect(total).toBe(4);

    expect(c.revenue).toHaveLength(12);
    expect(month(c.revenue, THIS_MONTH)).toEqual({ month: THIS_MONTH, amount: 499, amount_paise: 49_900 });
    expect(month(c.revenue, TWO_AGO)).toEqual({ month: TWO_AGO, amount: 750, amount_paise: 75_000 });

    expect(c.attendance).toEqual([expect.objectContaining({ name: 'A started', enrolled: 4, joined: 2, minutes: 65 })]);
    expect(c.assessment_gain).toEqual([
      expect.objectContaining({
        name: 'A started',
        pre_percent: 50,
        post_percent: 85,
        pre_learners: 2,
        post_learners: 2,
      }),
    ]);
  });

  it('a body or query string naming another tenant changes nothing: the caller’s own figures', async () => {
    const own = (await t.post('dashboard-charts', {}, tokens.a)).body;
    const named = await t.post(
      'dashboard-charts',
      { owner_user_id: ids.b, organization_id: ids.org, tenant: ids.b },
      tokens.a,
    );
    expect(named.status).toBe(200);
    expect(named.body).toEqual(own);
    const viaQuery = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard-charts?owner_user_id=${ids.b}&organization_id=${ids.org}`,
      headers: { authorization: `Bearer ${tokens.a}` },
      payload: {},
    });
    expect(viaQuery.statusCode).toBe(200);
    expect(viaQuery.json()).toEqual(own);
  });

  it('gives the organization and its sub-admin the same, the organization only', async () => {
    const org = await t.post('dashboard-charts', {}, tokens.org);
    const sub = await t.post('dashboard-charts', {}, tokens.subadmin);
    expect(org.status).toBe(200);
    expect(sub.body).toEqual(org.body);
    expect(month(org.body.enrolments, THIS_MONTH)).toEqual({ month: THIS_MONTH, trainings: 1, courses: 0 });
    expect(org.body.revenue).toEqual([]);
    expect(org.body.attendance.map((r: { name: string }) => r.name)).toEqual(['Org started']);
    expect(org.body.assessment_gain).toEqual([]);
  });

  it('gives a tenant with nothing yet empty series', async () => {
    const res = await t.post('dashboard-charts', {}, tokens.fresh);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enrolments: [], revenue: [], attendance: [], assessment_gain: [] });
  });
});

describe('/admin/dashboard-charts: the platform', () => {
  it('adds up every tenant and every successful payment', async () => {
    const res = await t.post('admin/dashboard-charts', {}, tokens.admin);
    expect(res.status).toBe(200);
    const c = res.body;
    // A 3, B 5, the organization 1 this month
    expect(month(c.enrolments, THIS_MONTH)).toEqual({ month: THIS_MONTH, trainings: 9, courses: 1 });
    // ₹499 + ₹200 + ₹300 this month; ₹750 two months ago; the failed payment left out
    expect(month(c.revenue, THIS_MONTH)).toEqual({ month: THIS_MONTH, amount: 999, amount_paise: 99_900 });
    expect(month(c.revenue, TWO_AGO)).toEqual({ month: TWO_AGO, amount: 750, amount_paise: 75_000 });
    // oldest first: A (10 days ago), the organization (3 days), B (yesterday)
    expect(c.attendance.map((r: { name: string }) => r.name)).toEqual(['A started', 'Org started', 'B started']);
    expect(c.assessment_gain).toEqual([
      expect.objectContaining({ name: 'A started', pre_percent: 50, post_percent: 85 }),
      expect.objectContaining({ name: 'B started', pre_percent: 100, post_percent: null, post_learners: 0 }),
    ]);
  });
});

describe('who may call', () => {
  it('refuses a learner, a provider on the admin call, and no token', async () => {
    expect((await t.post('dashboard-charts', {}, tokens.learner)).status).toBe(403);
    expect((await t.post('dashboard-charts', {}, tokens.admin)).status).toBe(403);
    expect((await t.post('admin/dashboard-charts', {}, tokens.a)).status).toBe(403);
    expect((await t.post('admin/dashboard-charts', {}, tokens.org)).status).toBe(403);
    const anonymous = await t.post('admin/dashboard-charts', {});
    expect(anonymous).toEqual({ status: 401, body: { message: 'Unauthenticated.', code: 'unauthenticated' } });
  });
});
