import type {
  CatalogueCertification,
  CatalogueCourse,
  searchCertificationsRequest,
  searchCoursesRequest,
} from '@trainlab/contract';
import { and, asc, desc, eq, getTableColumns, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { certifications, courses, organizations, users } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { certificationsWithMasters } from '../master-data/certifications-repo';

/**
 * The public catalogue (spec 01 §2 /training-home, /courses, /certifications): the public paid
 * courses of every tenant and the admin's certifications. Prices come from here and nowhere else.
 */

const HOME_LIMIT = 12;
export const toPaise = (rupees: number) => Math.round(rupees * 100);
export const toRupees = (paise: number) => paise / 100;

/** A course is in the catalogue when it is public, paid and has a price. */
export const inCatalogue = (): SQL =>
  and(eq(courses.is_public, 1), eq(courses.is_paid, 1), gt(courses.amount_paise, 0)) as SQL;

const purchases = courses.purchase_count;

/** Who offers a course: its organization, else its provider's name (needs both joins). */
export const offeredBy = sql<
  string | null
>`coalesce(${organizations.name}, nullif(trim(${users.first_name} || ' ' || ${users.last_name}), ''))`;

const courseColumns = {
  id: courses.id,
  name: courses.name,
  slug: courses.slug,
  description: courses.description,
  amount_paise: courses.amount_paise,
  created_at: courses.created_at,
  offered_by: offeredBy,
};

type CourseRow = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  amount_paise: number;
  offered_by: string | null;
};
const toCourse = (r: CourseRow): CatalogueCourse => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  description: r.description,
  amount: toRupees(r.amount_paise),
  amount_paise: r.amount_paise,
  offered_by: r.offered_by,
});

const courseFrom = (db: Db, extra: Record<string, unknown> = {}) =>
  db
    .select({ ...courseColumns, ...extra })
    .from(courses)
    .leftJoin(users, eq(users.id, courses.owner_user_id))
    .leftJoin(organizations, eq(organizations.id, courses.organization_id));

const stripTotal = ({ total: _t, ...row }: CatalogueCertification & { total?: number }): CatalogueCertification => row;

/** /get-home-trainings: trending courses (most bought, then newest) and certifications. */
export async function homeTrainings(deps: Deps) {
  const courseRows = await courseFrom(deps.db)
    .where(inCatalogue())
    .orderBy(desc(purchases), desc(courses.created_at), desc(courses.id))
    .limit(HOME_LIMIT);
  const { query, c } = certificationsWithMasters(deps.db, false);
  const certRows = await query.orderBy(asc(c.name), asc(c.id)).limit(HOME_LIMIT);
  const list = courseRows.map(toCourse);
  // the spec's clients read `list` (the courses) with `certifications` beside it; `courses` is the same array
  return { list, courses: list, certifications: certRows as CatalogueCertification[] };
}

type CourseQuery = z.output<typeof searchCoursesRequest>;
type CertQuery = z.output<typeof searchCertificationsRequest>;

/** /search-by-courses */
export async function searchCourses(deps: Deps, q: CourseQuery) {
  const window = pageWindow(q);
  const filter = and(
    inCatalogue(),
    searchWhere(q.search, [courses.name, courses.description]),
    q.min_price !== undefined ? gte(courses.amount_paise, toPaise(q.min_price)) : undefined,
    q.max_price !== undefined ? lte(courses.amount_paise, toPaise(q.max_price)) : undefined,
  );
  const rows = await courseFrom(deps.db, { total: totalOver() })
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        { name: courses.name, amount: courses.amount_paise, created_at: courses.created_at },
        [desc(purchases), desc(courses.created_at)],
        courses.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toPage(rows as unknown as (CourseRow & { total: number })[], window, toCourse, async () => {
    const [r] = await deps.db.select({ n: sql<number>`count(*)::int` }).from(courses).where(filter);
    return Number(r?.n ?? 0);
  });
}

/** /search-by-certifications */
export async function searchCertifications(deps: Deps, q: CertQuery) {
  const window = pageWindow(q);
  const { query, ct, pr, c } = certificationsWithMasters(deps.db, true);
  const filter = and(
    q.certification_type === 'All' ? undefined : sql`lower(${ct.name}) = lower(${q.certification_type})`,
    q.level ? sql`lower(${c.level}) = lower(${q.level})` : undefined,
    searchWhere(q.search, [c.name, pr.name, ct.name]),
    q.min_price !== undefined ? gte(c.cost_inr, q.min_price) : undefined,
    q.max_price !== undefined ? lte(c.cost_inr, q.max_price) : undefined,
  );
  const rows = await query
    .where(filter)
    .orderBy(...orderFor(q.sort, { name: c.name, cost_inr: c.cost_inr, level: c.level }, [asc(c.name)], c.id))
    .limit(window.limit)
    .offset(window.offset);
  return toPage(rows as (CatalogueCertification & { total: number })[], window, stripTotal, async () => {
    const again = certificationsWithMasters(deps.db, false);
    const all = await again.query.where(filter);
    return all.length;
  });
}

/** A course's current catalogue price (null when it is not for sale). */
export async function coursePrice(db: Db, id: number) {
  const [r] = await db
    .select({ ...getTableColumns(courses) })
    .from(courses)
    .where(and(eq(courses.id, id), inCatalogue()));
  return r ? { name: r.name, slug: r.slug, price_paise: r.amount_paise } : null;
}

/** A certification's current price in paise (null when it does not exist). */
export async function certificationPrice(db: Db, id: number) {
  const [r] = await db
    .select({ name: certifications.name, cost_inr: certifications.cost_inr })
    .from(certifications)
    .where(eq(certifications.id, id));
  return r ? { name: r.name, slug: null, price_paise: toPaise(Number(r.cost_inr)) } : null;
}
