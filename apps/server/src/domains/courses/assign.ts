import { type assignCourseRequest, COURSE_MSG, type COURSE_USER_SORT_KEYS, type ListQuery } from '@trainlab/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { courseEnrolments, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { courseForManager, learnerScope } from './access';
import { percentages } from './player';

/** /get-lp-or-org-users */
export async function lpOrOrgUsers(deps: Deps, auth: AuthContext) {
  const scope = learnerScope(auth);
  if (!scope) return { list: [] };
  const rows = await deps.db
    .select({ id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(users)
    .where(scope)
    .orderBy(asc(users.first_name), asc(users.last_name), asc(users.id));
  return { list: rows };
}

/** /assign-course-to-user: one enrolment per learner; assigning again updates the window. */
export async function assignCourse(deps: Deps, auth: AuthContext, body: z.output<typeof assignCourseRequest>) {
  const course = await courseForManager(deps, auth, body.slug);
  const scope = learnerScope(auth);
  const ids = [...new Set(body.userIds)];
  const found = scope
    ? await deps.db
        .select({ id: users.id })
        .from(users)
        .where(and(scope, inArray(users.id, ids)))
    : [];
  if (found.length !== ids.length) throw new ValidationError({ userIds: ['The selected user ids is invalid.'] });
  const start = new Date(body.start_date);
  const end = endOfDayIfDateOnly(body.end_date);
  return deps.db.transaction(async (tx) => {
    const existing = await tx
      .select({ user_id: courseEnrolments.user_id })
      .from(courseEnrolments)
      .where(and(eq(courseEnrolments.course_id, course.id), inArray(courseEnrolments.user_id, ids)));
    await tx
      .insert(courseEnrolments)
      .values(
        ids.map((user_id) => ({
          course_id: course.id,
          user_id,
          source: 'assigned',
          start_date: start,
          end_date: end,
        })),
      )
      .onConflictDoUpdate({
        target: [courseEnrolments.course_id, courseEnrolments.user_id],
        set: { start_date: start, end_date: end, updated_at: new Date() },
      });
    return { message: COURSE_MSG.assigned, assigned: ids.length - existing.length, updated: existing.length };
  });
}

/** A date-only end ('2026-12-31') means the whole of that day. */
function endOfDayIfDateOnly(v: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? new Date(`${v.trim()}T23:59:59.999Z`) : new Date(v);
}

/** /get-course-users-list: a page of the course's learners with their progress. */
export async function courseUsers(
  deps: Deps,
  auth: AuthContext,
  q: ListQuery<(typeof COURSE_USER_SORT_KEYS)[number]> & { slug: string },
) {
  const course = await courseForManager(deps, auth, q.slug);
  const window = pageWindow(q);
  const filter = and(
    eq(courseEnrolments.course_id, course.id),
    searchWhere(q.search, [users.first_name, users.last_name, users.email]),
  );
  const rows = await deps.db
    .select({ enrolment: courseEnrolments, user: users, total: totalOver() })
    .from(courseEnrolments)
    .innerJoin(users, eq(users.id, courseEnrolments.user_id))
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        { first_name: users.first_name, email: users.email, start_date: courseEnrolments.start_date },
        [asc(users.first_name)],
        courseEnrolments.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  const pct = await percentages(
    deps,
    rows.map((r) => ({ course_id: course.id, user_id: r.user.id })),
  );
  return toPage(
    rows,
    window,
    (r) => ({
      id: r.enrolment.id,
      user_id: r.user.id,
      first_name: r.user.first_name,
      last_name: r.user.last_name,
      email: r.user.email,
      source: r.enrolment.source,
      start_date: r.enrolment.start_date?.toISOString() ?? null,
      end_date: r.enrolment.end_date?.toISOString() ?? null,
      is_complete: r.enrolment.is_complete,
      percentage: r.enrolment.is_complete ? 100 : (pct.get(`${course.id}:${r.user.id}`) ?? 0),
    }),
    async () => {
      const [c] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(courseEnrolments)
        .innerJoin(users, eq(users.id, courseEnrolments.user_id))
        .where(filter);
      return Number(c?.n ?? 0);
    },
  );
}
