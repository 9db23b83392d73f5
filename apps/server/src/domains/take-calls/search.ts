import type { trainerSearchRequest } from '@trainlab/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { categories, skills, trainerProfiles, trainerSkills, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { likePattern, pageWindow } from '../../platform/http/paging';

/** Experience normalised to months so years and months compare. */
const months = sql`(case when ${trainerSkills.type} = 'Year' then ${trainerSkills.experience} * 12 else ${trainerSkills.experience} end)`;

/**
 * /get-trainer-list: active trainers with at least one skill matching every filter, with those
 * skills, their lowest rate and longest experience. One statement: the page, the total (window
 * count over the grouped rows) and the skills (json_agg).
 */
export async function searchTrainers(deps: Deps, q: z.output<typeof trainerSearchRequest>) {
  const w = pageWindow(q);
  const pattern = q.search ? likePattern(q.search) : null;
  const where: SQL | undefined = and(
    sql`${users.roles} @> array['trainer']::text[]`,
    eq(users.status, 1),
    eq(users.is_approved, 1),
    q.category_id ? eq(skills.category_id, q.category_id) : undefined,
    q.skill_id ? eq(skills.id, q.skill_id) : undefined,
    q.max_rate ? sql`${trainerSkills.rate_per_hours} <= ${q.max_rate}` : undefined,
    q.min_experience_months !== undefined ? sql`${months} >= ${q.min_experience_months}` : undefined,
    pattern
      ? sql`(${users.first_name} ilike ${pattern} or ${users.last_name} ilike ${pattern} or ${skills.name} ilike ${pattern} or ${categories.name} ilike ${pattern})`
      : undefined,
  );
  const rate = sql<number>`min(${trainerSkills.rate_per_hours})`.mapWith(Number);
  const experience = sql<number>`max(${months})`.mapWith(Number);
  const sortKey = q.sort?.replace(/^-/, '');
  const dir = q.sort?.startsWith('-') ? sql`desc` : sql`asc`;
  const order =
    sortKey === 'rate_per_hours'
      ? sql`min(${trainerSkills.rate_per_hours}) ${dir}, ${users.id} ${dir}`
      : sortKey === 'experience'
        ? sql`max(${months}) ${dir}, ${users.id} ${dir}`
        : sortKey === 'first_name'
          ? sql`${users.first_name} ${dir}, ${users.id} ${dir}`
          : sql`${users.first_name} asc, ${users.id} asc`;
  const rows = await deps.db
    .select({
      id: users.id,
      first_name: users.first_name,
      last_name: users.last_name,
      base_location: trainerProfiles.base_location,
      experience_over_all: trainerProfiles.experience_over_all,
      rate_per_hours: rate,
      experience,
      skills: sql<
        { cname: string; sname: string; experience: number; type: 'Month' | 'Year'; rate_per_hours: number }[]
      >`json_agg(json_build_object('cname', ${categories.name}, 'sname', ${skills.name}, 'experience', ${trainerSkills.experience}, 'type', ${trainerSkills.type}, 'rate_per_hours', ${trainerSkills.rate_per_hours}) order by ${skills.name})`,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(users)
    .innerJoin(trainerSkills, eq(trainerSkills.trainer_id, users.id))
    .innerJoin(skills, eq(skills.id, trainerSkills.skill_id))
    .innerJoin(categories, eq(categories.id, skills.category_id))
    .leftJoin(trainerProfiles, eq(trainerProfiles.user_id, users.id))
    .where(where)
    .groupBy(users.id, trainerProfiles.user_id)
    .orderBy(order)
    .limit(w.limit)
    .offset(w.offset);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && w.page > 1) {
    const [c] = await deps.db
      .select({ n: sql<number>`count(distinct ${users.id})::int` })
      .from(users)
      .innerJoin(trainerSkills, eq(trainerSkills.trainer_id, users.id))
      .innerJoin(skills, eq(skills.id, trainerSkills.skill_id))
      .innerJoin(categories, eq(categories.id, skills.category_id))
      .where(where);
    total = Number(c?.n ?? 0);
  }
  return {
    list: rows.map(({ total: _t, skills: s, ...r }) => ({
      ...r,
      skills: (typeof s === 'string' ? JSON.parse(s) : s).map(
        (k: { experience: unknown; rate_per_hours: unknown }) => ({
          ...k,
          experience: Number(k.experience),
          rate_per_hours: Number(k.rate_per_hours),
        }),
      ),
    })),
    total,
    page: w.page,
    per_page: w.per_page,
  };
}
