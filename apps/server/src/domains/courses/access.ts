import { and, eq, or, type SQL } from 'drizzle-orm';
import { courseEnrolments, courseModules, courses, courseTopics, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import {
  isLearner,
  isManager,
  managedBy,
  managerTenant,
  type Tenant,
  tenantLearnersWhere,
  tenantsOf,
  tenantWhere,
} from '../../platform/tenancy';

/**
 * The one place that decides who sees which course:
 * - managers (provider, organization, org_subadmin) author and assign the courses of their tenant;
 * - learners play the courses they are enrolled in (assigned: inside the window; bought: always).
 * A course outside what the caller may see answers 404, as if it did not exist.
 */
export type CourseRow = typeof courses.$inferSelect;
export type ModuleRow = typeof courseModules.$inferSelect;
export type TopicRow = typeof courseTopics.$inferSelect;
export type EnrolmentRow = typeof courseEnrolments.$inferSelect;

export const courseTenantWhere = (tenant: Tenant): SQL => tenantWhere(courses, tenant);

export const managesCourse = (auth: AuthContext, course: CourseRow): boolean =>
  isManager(auth) && managedBy(auth, course);

async function managedCourse(deps: Deps, auth: AuthContext, where: SQL): Promise<CourseRow> {
  const [row] = await deps.db
    .select()
    .from(courses)
    .where(and(where, courseTenantWhere(managerTenant(auth))))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export const courseForManager = (deps: Deps, auth: AuthContext, slug: string) =>
  managedCourse(deps, auth, eq(courses.slug, slug));
export const courseByIdForManager = (deps: Deps, auth: AuthContext, id: number) =>
  managedCourse(deps, auth, eq(courses.id, id));

/** A module of a course of the caller's tenant, with its course; 404 otherwise. */
export async function moduleForManager(deps: Deps, auth: AuthContext, moduleId: number) {
  const [row] = await deps.db
    .select({ module: courseModules, course: courses })
    .from(courseModules)
    .innerJoin(courses, eq(courses.id, courseModules.course_id))
    .where(and(eq(courseModules.id, moduleId), courseTenantWhere(managerTenant(auth))))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** A topic (by slug or id) of a course of the caller's tenant, with its module and course; 404 otherwise. */
export async function topicForManager(deps: Deps, auth: AuthContext, by: { slug: string } | { id: number }) {
  const [row] = await deps.db
    .select({ topic: courseTopics, module: courseModules, course: courses })
    .from(courseTopics)
    .innerJoin(courseModules, eq(courseModules.id, courseTopics.module_id))
    .innerJoin(courses, eq(courses.id, courseModules.course_id))
    .where(
      and(
        'slug' in by ? eq(courseTopics.slug, by.slug) : eq(courseTopics.id, by.id),
        courseTenantWhere(managerTenant(auth)),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Whether an enrolment lets the learner play now: purchases always, assignments inside their window. */
export function insideWindow(e: Pick<EnrolmentRow, 'source' | 'start_date' | 'end_date'>, now = new Date()): boolean {
  if (e.source !== 'assigned') return true;
  if (e.start_date && e.start_date.getTime() > now.getTime()) return false;
  if (e.end_date && e.end_date.getTime() < now.getTime()) return false;
  return true;
}

export type PlayAccess = { course: CourseRow; enrolment: EnrolmentRow | null };

/**
 * A course the caller may play: a manager's own course (preview), or one the learner is enrolled in.
 * Outside the window the course answers 403 with a clear reason (it is theirs, just not now).
 */
export async function courseForPlayer(deps: Deps, auth: AuthContext, slug: string): Promise<PlayAccess> {
  const [course] = await deps.db.select().from(courses).where(eq(courses.slug, slug)).limit(1);
  if (!course) throw notFound();
  if (managesCourse(auth, course)) return { course, enrolment: null };
  if (isLearner(auth.user.roles)) {
    const [enrolment] = await deps.db
      .select()
      .from(courseEnrolments)
      .where(and(eq(courseEnrolments.course_id, course.id), eq(courseEnrolments.user_id, auth.user.id)))
      .limit(1);
    if (enrolment) return { course, enrolment };
  }
  throw notFound();
}

/**
 * The learners a manager may assign courses to: a provider's provider users, an organization's users;
 * an account acting for both tenants reaches the learners of both.
 */
export function learnerScope(auth: AuthContext): SQL | null {
  const parts = tenantsOf(auth.user).map(tenantLearnersWhere);
  if (!parts.length) return null;
  const scope = parts.length === 1 ? parts[0]! : or(...parts)!;
  return and(scope, eq(users.status, 1))!;
}
