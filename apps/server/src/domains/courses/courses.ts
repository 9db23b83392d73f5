import {
  type CATALOGUE_SORT_KEYS,
  COURSE_MSG,
  type COURSE_SORT_KEYS,
  type createCourseRequest,
  type createModuleRequest,
  type ListQuery,
} from '@trainlab/contract';
import { and, asc, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { courseModules, courses } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import {
  cappedCount,
  countWhere,
  orderFor,
  pageWindow,
  searchWhere,
  toCountedPage,
  toPage,
  totalOver,
} from '../../platform/http/paging';
import { makeSlug } from '../../platform/slug';
import { managerTenant, tenantColumns } from '../../platform/tenancy';
import { type CourseRow, courseByIdForManager, courseForManager, courseTenantWhere } from './access';

export const rupees = (paise: number) => paise / 100;

/** What the tenant's course list reads: courses, their topics and learners (accounts cascade into those). */
export const COURSE_LIST_TABLES = ['courses', 'course_modules', 'course_topics', 'course_enrolments', 'users'] as const;

const counts = {
  topics: sql<number>`(select count(*)::int from course_topics ct join course_modules cm on cm.id = ct.module_id where cm.course_id = "courses"."id")`,
  learners: sql<number>`(select count(*)::int from course_enrolments ce where ce.course_id = "courses"."id")`,
};

const toCourseItem = (r: CourseRow & { topics: number; learners: number }) => ({
  id: r.id,
  course_id: r.id,
  slug: r.slug,
  name: r.name,
  amount: rupees(r.amount_paise),
  is_paid: r.is_paid,
  is_public: r.is_public,
  description: r.description,
  topics: Number(r.topics),
  learners: Number(r.learners),
});

/** /create-course */
export async function createCourse(deps: Deps, auth: AuthContext, body: z.output<typeof createCourseRequest>) {
  const tenant = managerTenant(auth);
  const [row] = await deps.db
    .insert(courses)
    .values({
      slug: makeSlug(body.name),
      name: body.name,
      amount_paise: Math.round(body.amount * 100),
      is_paid: body.is_paid ? 1 : 0,
      is_public: body.is_public ? 1 : 0,
      description: body.description,
      created_by: auth.user.id,
      ...tenantColumns(tenant),
    })
    .returning();
  return { message: COURSE_MSG.courseCreated, id: row!.id, slug: row!.slug };
}

/** /create-module */
export async function createModule(deps: Deps, auth: AuthContext, body: z.output<typeof createModuleRequest>) {
  const course = await courseByIdForManager(deps, auth, body.course_id);
  const [row] = await deps.db
    .insert(courseModules)
    .values({
      course_id: course.id,
      name: body.name,
      position: sql`(select coalesce(max(position), 0) + 1 from course_modules where course_id = ${course.id})`,
    })
    .returning();
  return { message: COURSE_MSG.courseCreated, id: row!.id, name: row!.name };
}

/** /get-modules */
export async function getModules(deps: Deps, auth: AuthContext, courseId: number) {
  const course = await courseByIdForManager(deps, auth, courseId);
  const rows = await deps.db
    .select()
    .from(courseModules)
    .where(eq(courseModules.course_id, course.id))
    .orderBy(asc(courseModules.position), asc(courseModules.id));
  return { list: rows.map((m) => ({ id: m.id, name: m.name, course_id: m.course_id })) };
}

/** /get-courses: one page of the tenant's courses. */
export async function getCourses(deps: Deps, auth: AuthContext, q: ListQuery<(typeof COURSE_SORT_KEYS)[number]>) {
  const window = pageWindow(q);
  const filter = and(courseTenantWhere(managerTenant(auth)), searchWhere(q.search, [courses.name]));
  const rows = await deps.db
    .select({ ...getTableColumns(courses), ...counts, capped_total: cappedCount(courses, filter, window) })
    .from(courses)
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        { name: courses.name, amount: courses.amount_paise, created_at: courses.created_at },
        [desc(courses.created_at)],
        courses.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toCountedPage(rows, window, toCourseItem, (limit) => countWhere(deps.db, courses, filter, limit));
}

/** /get-course-details */
export async function getCourseDetails(deps: Deps, auth: AuthContext, slug: string) {
  const course = await courseForManager(deps, auth, slug);
  const [row] = await deps.db
    .select({ ...getTableColumns(courses), ...counts })
    .from(courses)
    .where(eq(courses.id, course.id));
  return { success: toCourseItem(row!) };
}

/** /course-list: the public catalogue, for anyone signed in. */
export async function courseList(deps: Deps, q: ListQuery<(typeof CATALOGUE_SORT_KEYS)[number]>) {
  const window = pageWindow(q);
  const filter = and(eq(courses.is_public, 1), searchWhere(q.search, [courses.name]));
  const rows = await deps.db
    .select({ ...getTableColumns(courses), total: totalOver() })
    .from(courses)
    .where(filter)
    .orderBy(...orderFor(q.sort, { name: courses.name, amount: courses.amount_paise }, [desc(courses.id)], courses.id))
    .limit(window.limit)
    .offset(window.offset);
  return toPage(
    rows,
    window,
    (r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      amount: rupees(r.amount_paise),
      is_paid: r.is_paid,
      description: r.description,
    }),
    () => countWhere(deps.db, courses, filter),
  );
}
