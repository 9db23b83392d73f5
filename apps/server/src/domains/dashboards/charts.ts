import { type DashboardCharts, PAYMENT_STATUS } from '@trainlab/contract';
import { and, type Column, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import {
  assessmentAttempts,
  assessments,
  courseEnrolments,
  courses,
  paymentItems,
  payments,
  trainingAttendances,
  trainings,
  trainingUsers,
} from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import { managerTenant, type Tenant, tenantWhere } from '../../platform/tenancy';
import { courseTenantWhere } from '../courses/access';

/**
 * The figures behind the dashboards' charts (decision 0046). Every figure is one grouped statement:
 * the database adds up, the server only fills the months that had nothing. The admin sees the
 * platform; a manager the trainings, courses and course sales of its tenant (`managerTenant`: a
 * provider its own, an organization and its sub-admins the organization's).
 */

const MONTHS = 12;
/** how many trainings the attendance and assessment charts show, the latest that have started */
const TRAININGS_SHOWN = 10;

/** null: the whole platform (the admin) */
type Scope = Tenant | null;

/** The keys of the last 12 calendar months in UTC, oldest first ('2026-01'). */
export function lastMonths(now = new Date()): string[] {
  const keys: string[] = [];
  for (let back = MONTHS - 1; back >= 0; back--) {
    keys.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7));
  }
  return keys;
}

const firstMonthStart = (months: string[]) => new Date(`${months[0]}-01T00:00:00.000Z`);
const monthOf = (at: Column | SQL) => sql<string>`to_char(date_trunc('month', ${at} at time zone 'UTC'), 'YYYY-MM')`;
const isoText = (at: Column | SQL) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const paidAt = sql`coalesce(${payments.paid_at}, ${payments.created_at})`;

/**
 * The 12 months with the figures of the rows found, zeros between; empty when no row fell in them, so
 * a client can say 'nothing yet' without adding up zeros.
 */
function fillMonths<T extends Record<string, number>>(
  months: string[],
  rows: { month: string; figures: Partial<T> }[],
  zero: T,
): ({ month: string } & T)[] {
  const found = new Map<string, Partial<T>>();
  for (const r of rows) if (months.includes(r.month)) found.set(r.month, r.figures);
  if (!found.size) return [];
  return months.map((month) => ({ month, ...zero, ...found.get(month) }));
}

async function enrolmentsPerMonth(deps: Deps, scope: Scope, months: string[]) {
  const since = firstMonthStart(months);
  const [live, recorded] = await Promise.all([
    deps.db
      .select({ month: monthOf(trainingUsers.created_at), n: sql<number>`count(*)::int` })
      .from(trainingUsers)
      .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
      .where(and(scope ? tenantWhere(trainings, scope) : undefined, gte(trainingUsers.created_at, since)))
      .groupBy(sql`1`),
    deps.db
      .select({ month: monthOf(courseEnrolments.created_at), n: sql<number>`count(*)::int` })
      .from(courseEnrolments)
      .innerJoin(courses, eq(courses.id, courseEnrolments.course_id))
      .where(and(scope ? courseTenantWhere(scope) : undefined, gte(courseEnrolments.created_at, since)))
      .groupBy(sql`1`),
  ]);
  const rows = new Map<string, { trainings?: number; courses?: number }>();
  for (const r of live) rows.set(r.month, { ...rows.get(r.month), trainings: Number(r.n) });
  for (const r of recorded) rows.set(r.month, { ...rows.get(r.month), courses: Number(r.n) });
  return fillMonths(
    months,
    [...rows].map(([month, figures]) => ({ month, figures })),
    { trainings: 0, courses: 0 },
  );
}

/**
 * Revenue in paise, by the month a payment succeeded, refunds taken off. The platform's is every
 * successful payment (courses, certifications, VM bills); a tenant's is the sale of its courses, a
 * payment's refund shared by its lines in proportion to their amounts.
 */
async function revenuePerMonth(deps: Deps, scope: Scope, months: string[]) {
  const since = firstMonthStart(months);
  const succeeded = and(eq(payments.status, PAYMENT_STATUS.success), gte(paidAt, since));
  const rows = scope
    ? await deps.db
        .select({
          month: monthOf(paidAt),
          paise: sql<string>`sum(${paymentItems.amount_paise} - coalesce(${paymentItems.amount_paise}::bigint * ${payments.refunded_paise} / nullif(${payments.amount_paise}, 0), 0))::bigint`,
        })
        .from(paymentItems)
        .innerJoin(payments, eq(payments.id, paymentItems.payment_id))
        .innerJoin(courses, and(eq(paymentItems.kind, 'course'), eq(courses.id, paymentItems.ref_id)))
        .where(and(succeeded, courseTenantWhere(scope)))
        .groupBy(sql`1`)
    : await deps.db
        .select({
          month: monthOf(paidAt),
          paise: sql<string>`sum(${payments.amount_paise} - ${payments.refunded_paise})::bigint`,
        })
        .from(payments)
        .where(succeeded)
        .groupBy(sql`1`);
  return fillMonths(
    months,
    rows.map((r) => ({ month: r.month, figures: { amount: Number(r.paise) / 100, amount_paise: Number(r.paise) } })),
    { amount: 0, amount_paise: 0 },
  );
}

/** The latest trainings that have started: enrolled learners, those who joined, minutes attended. */
async function attendance(deps: Deps, scope: Scope) {
  const latest = await deps.db
    .select({ id: trainings.id, slug: trainings.slug, name: trainings.name, start_date: trainings.start_date })
    .from(trainings)
    .where(and(scope ? tenantWhere(trainings, scope) : undefined, lte(trainings.start_date, sql`now()`)))
    .orderBy(desc(trainings.start_date), desc(trainings.id))
    .limit(TRAININGS_SHOWN);
  if (!latest.length) return [];
  const ids = latest.map((r) => r.id);
  const [enrolled, attended] = await Promise.all([
    deps.db
      .select({ id: trainingUsers.training_id, n: sql<number>`count(*)::int` })
      .from(trainingUsers)
      .where(inArray(trainingUsers.training_id, ids))
      .groupBy(trainingUsers.training_id),
    deps.db
      .select({
        id: trainingAttendances.training_id,
        joined: sql<number>`count(distinct ${trainingAttendances.training_user_id})::int`,
        minutes: sql<number>`coalesce(sum(${trainingAttendances.minutes}), 0)::int`,
      })
      .from(trainingAttendances)
      .where(inArray(trainingAttendances.training_id, ids))
      .groupBy(trainingAttendances.training_id),
  ]);
  const enrolledOf = new Map(enrolled.map((r) => [r.id, Number(r.n)]));
  const attendedOf = new Map(attended.map((r) => [r.id, r]));
  return latest.reverse().map((r) => ({
    slug: r.slug,
    name: r.name,
    start_date: r.start_date.toISOString(),
    enrolled: enrolledOf.get(r.id) ?? 0,
    joined: Number(attendedOf.get(r.id)?.joined ?? 0),
    minutes: Number(attendedOf.get(r.id)?.minutes ?? 0),
  }));
}

interface GainRow {
  slug: string;
  name: string;
  start_date: string;
  pre_percent: number | string | null;
  post_percent: number | string | null;
  pre_learners: number | string;
  post_learners: number | string;
}

/**
 * Pre (type 1) against post (type 2) test per training: the average percentage of each learner's
 * latest submitted attempt, for the latest trainings with at least one.
 */
async function assessmentGain(deps: Deps, scope: Scope) {
  const where = scope ? sql`and ${tenantWhere(trainings, scope)}` : sql``;
  const result = await deps.db.execute(sql`
    select l.slug, l.name, l.start_date,
      round(avg(l.pct) filter (where l.type = 1), 1)::float8 as pre_percent,
      round(avg(l.pct) filter (where l.type = 2), 1)::float8 as post_percent,
      (count(*) filter (where l.type = 1))::int as pre_learners,
      (count(*) filter (where l.type = 2))::int as post_learners
    from (
      select distinct on (${assessmentAttempts.assessment_id}, ${assessmentAttempts.user_id})
        ${trainings.id} as training_id, ${trainings.slug} as slug, ${trainings.name} as name,
        ${isoText(trainings.start_date)} as start_date, ${trainings.start_date} as starts,
        ${assessments.type} as type,
        ${assessmentAttempts.score} * 100.0 / ${assessmentAttempts.total} as pct
      from ${assessmentAttempts}
      join ${assessments} on ${assessments.id} = ${assessmentAttempts.assessment_id}
      join ${trainings} on ${trainings.id} = ${assessments.training_id}
      where ${assessmentAttempts.submitted_at} is not null and ${assessmentAttempts.score} is not null
        and ${assessmentAttempts.total} > 0 and ${assessments.type} in (1, 2) ${where}
      order by ${assessmentAttempts.assessment_id}, ${assessmentAttempts.user_id},
        ${assessmentAttempts.submitted_at} desc, ${assessmentAttempts.id} desc
    ) l
    group by l.training_id, l.slug, l.name, l.start_date, l.starts
    order by l.starts desc, l.training_id desc
    limit ${TRAININGS_SHOWN}`);
  const rows = (result as unknown as { rows: GainRow[] }).rows;
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return rows.reverse().map((r) => ({
    slug: r.slug,
    name: r.name,
    start_date: r.start_date,
    pre_percent: num(r.pre_percent),
    post_percent: num(r.post_percent),
    pre_learners: Number(r.pre_learners),
    post_learners: Number(r.post_learners),
  }));
}

async function charts(deps: Deps, scope: Scope, now = new Date()): Promise<DashboardCharts> {
  const months = lastMonths(now);
  const [enrolments, revenue, attended, gain] = await Promise.all([
    enrolmentsPerMonth(deps, scope, months),
    revenuePerMonth(deps, scope, months),
    attendance(deps, scope),
    assessmentGain(deps, scope),
  ]);
  return { enrolments, revenue, attendance: attended, assessment_gain: gain };
}

/** /admin/dashboard-charts: the whole platform. */
export const adminCharts = (deps: Deps) => charts(deps, null);

/** /dashboard-charts: the caller's tenant (403 for an organization account without an organization). */
export const managerCharts = (deps: Deps, auth: AuthContext) => charts(deps, managerTenant(auth));
