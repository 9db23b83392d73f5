import type { CatalogueCourseDetails } from '@trainlab/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { courseModules, courses, courseTopics, organizations, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { ownedKeys } from '../payments/ownership';
import { inCatalogue, offeredBy, toRupees } from './catalog';

/**
 * /get-catalogue-course: the public page of a course for sale (issue 32). It shows what a buyer
 * needs to decide (description, price, who offers it, the modules and their topics' titles and
 * lengths) and never a video or its address. A course not for sale answers 404 like one that does
 * not exist.
 */
export async function catalogueCourse(
  deps: Deps,
  auth: AuthContext | null,
  slug: string,
): Promise<CatalogueCourseDetails> {
  const [course] = await deps.db
    .select({
      id: courses.id,
      name: courses.name,
      slug: courses.slug,
      description: courses.description,
      amount_paise: courses.amount_paise,
      offered_by: offeredBy,
    })
    .from(courses)
    .leftJoin(users, eq(users.id, courses.owner_user_id))
    .leftJoin(organizations, eq(organizations.id, courses.organization_id))
    .where(and(eq(courses.slug, slug), inCatalogue()));
  if (!course) throw notFound();
  const modules = await deps.db
    .select({ id: courseModules.id, name: courseModules.name })
    .from(courseModules)
    .where(eq(courseModules.course_id, course.id))
    .orderBy(asc(courseModules.position), asc(courseModules.id));
  const topics = modules.length
    ? await deps.db
        .select({
          module_id: courseTopics.module_id,
          name: courseTopics.name,
          duration_seconds: courseTopics.duration_seconds,
        })
        .from(courseTopics)
        .where(
          inArray(
            courseTopics.module_id,
            modules.map((m) => m.id),
          ),
        )
        .orderBy(asc(courseTopics.position), asc(courseTopics.id))
    : [];
  const owned = auth
    ? (await ownedKeys(deps.db, auth.user.id, [{ type: 'is_course', type_id: course.id }])).size > 0
    : false;
  return {
    ...course,
    amount: toRupees(course.amount_paise),
    modules: modules.map((m) => ({
      id: m.id,
      name: m.name,
      topics: topics
        .filter((t) => t.module_id === m.id)
        .map((t) => ({ name: t.name, duration_seconds: t.duration_seconds })),
    })),
    owned,
  };
}
