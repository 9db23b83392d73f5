import {
  type createSkillRequest,
  type ListQuery,
  MSG,
  TRAINER_MSG,
  type TRAINER_SKILL_SORT_KEYS,
  type trainerSkillRequest,
  type updateTrainerSkillRequest,
} from '@trainlab/contract';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { categories, skills, trainerSkills } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound, ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { isUniqueViolation } from '../organizations/shared';

/** Skills per category (master data any trainer may grow) and each trainer's skills with rate. */

export async function skillCategories(deps: Deps) {
  return {
    list: await deps.db
      .select({ id: categories.id, name: categories.name, slug: categories.slug })
      .from(categories)
      .orderBy(asc(categories.name), asc(categories.id)),
  };
}

export async function getSkills(deps: Deps, categoryId: number | undefined) {
  return {
    list: await deps.db
      .select({ id: skills.id, name: skills.name, category_id: skills.category_id })
      .from(skills)
      .where(categoryId ? eq(skills.category_id, categoryId) : undefined)
      .orderBy(asc(skills.name), asc(skills.id)),
  };
}

export async function createSkill(deps: Deps, body: z.output<typeof createSkillRequest>) {
  const [cat] = await deps.db.select({ id: categories.id }).from(categories).where(eq(categories.id, body.category_id));
  if (!cat) throw invalidField('category_id', TRAINER_MSG.categoryInvalid);
  try {
    const [row] = await deps.db
      .insert(skills)
      .values({ name: body.name, category_id: body.category_id })
      .returning({ id: skills.id });
    return { message: MSG.recordAdded, id: row!.id };
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('name', TRAINER_MSG.skillNameTaken);
    throw e;
  }
}

const skillColumns = {
  tsid: trainerSkills.id,
  id: trainerSkills.id,
  category_id: skills.category_id,
  skill_id: trainerSkills.skill_id,
  cname: categories.name,
  sname: skills.name,
  experience: trainerSkills.experience,
  type: trainerSkills.type,
  rate_per_hours: trainerSkills.rate_per_hours,
};
type SkillOut = { type: string } & Record<string, unknown>;
const typed = <T extends SkillOut>(r: T) => ({ ...r, type: r.type as 'Month' | 'Year' });

export async function trainerSkillList(
  deps: Deps,
  auth: AuthContext,
  q: ListQuery<(typeof TRAINER_SKILL_SORT_KEYS)[number]>,
) {
  const w = pageWindow(q);
  const where = and(eq(trainerSkills.trainer_id, auth.user.id), searchWhere(q.search, [skills.name, categories.name]));
  const rows = await deps.db
    .select({ ...skillColumns, total: totalOver() })
    .from(trainerSkills)
    .innerJoin(skills, eq(skills.id, trainerSkills.skill_id))
    .innerJoin(categories, eq(categories.id, skills.category_id))
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        {
          cname: categories.name,
          sname: skills.name,
          experience: trainerSkills.experience,
          rate_per_hours: trainerSkills.rate_per_hours,
        },
        [asc(categories.name), asc(skills.name)],
        trainerSkills.id,
      ),
    )
    .limit(w.limit)
    .offset(w.offset);
  return toPage(
    rows,
    w,
    ({ total: _t, ...r }) => typed(r),
    async () => {
      const [c] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(trainerSkills)
        .innerJoin(skills, eq(skills.id, trainerSkills.skill_id))
        .innerJoin(categories, eq(categories.id, skills.category_id))
        .where(where);
      return Number(c?.n ?? 0);
    },
  );
}

async function mySkill(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await deps.db
    .select(skillColumns)
    .from(trainerSkills)
    .innerJoin(skills, eq(skills.id, trainerSkills.skill_id))
    .innerJoin(categories, eq(categories.id, skills.category_id))
    .where(and(eq(trainerSkills.id, id), eq(trainerSkills.trainer_id, auth.user.id)));
  if (!row) throw notFound();
  return typed(row);
}

export const getTrainerSkill = async (deps: Deps, auth: AuthContext, id: number) => ({
  success: await mySkill(deps, auth, id),
});

/** The skill must belong to the chosen category; a trainer lists each skill once. */
async function checkSkill(deps: Deps, auth: AuthContext, b: z.output<typeof trainerSkillRequest>, exceptId?: number) {
  const [s] = await deps.db.select().from(skills).where(eq(skills.id, b.skill_id));
  if (!s || s.category_id !== b.category_id) {
    const [cat] = await deps.db.select({ id: categories.id }).from(categories).where(eq(categories.id, b.category_id));
    throw new ValidationError(
      cat ? { skill_id: [TRAINER_MSG.skillInvalid] } : { category_id: [TRAINER_MSG.categoryInvalid] },
    );
  }
  const [dup] = await deps.db
    .select({ id: trainerSkills.id })
    .from(trainerSkills)
    .where(
      and(
        eq(trainerSkills.trainer_id, auth.user.id),
        eq(trainerSkills.skill_id, b.skill_id),
        exceptId ? ne(trainerSkills.id, exceptId) : undefined,
      ),
    );
  if (dup) throw invalidField('skill_id', TRAINER_MSG.skillTaken);
}

export async function addTrainerSkill(deps: Deps, auth: AuthContext, b: z.output<typeof trainerSkillRequest>) {
  await checkSkill(deps, auth, b);
  try {
    const [row] = await deps.db
      .insert(trainerSkills)
      .values({
        trainer_id: auth.user.id,
        skill_id: b.skill_id,
        experience: b.experience,
        type: b.type,
        rate_per_hours: b.rate_per_hours,
      })
      .returning({ id: trainerSkills.id });
    return { message: TRAINER_MSG.skillAdded, id: row!.id };
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('skill_id', TRAINER_MSG.skillTaken);
    throw e;
  }
}

export async function updateTrainerSkill(deps: Deps, auth: AuthContext, b: z.output<typeof updateTrainerSkillRequest>) {
  const row = await mySkill(deps, auth, b.id);
  await checkSkill(deps, auth, b, row.id);
  await deps.db
    .update(trainerSkills)
    .set({ skill_id: b.skill_id, experience: b.experience, type: b.type, rate_per_hours: b.rate_per_hours })
    .where(eq(trainerSkills.id, row.id));
  return { message: MSG.recordUpdated, id: row.id };
}

export async function deleteTrainerSkill(deps: Deps, auth: AuthContext, id: number) {
  const row = await mySkill(deps, auth, id);
  await deps.db.delete(trainerSkills).where(eq(trainerSkills.id, row.id));
  return { message: MSG.recordDeleted };
}

/** A skill the caller lists among their skills (certificates and references name one). */
export async function ownSkill(deps: Deps, auth: AuthContext, skillId: number) {
  const [row] = await deps.db
    .select({ id: skills.id, name: skills.name })
    .from(trainerSkills)
    .innerJoin(skills, eq(skills.id, trainerSkills.skill_id))
    .where(and(eq(trainerSkills.trainer_id, auth.user.id), eq(trainerSkills.skill_id, skillId)));
  if (!row) throw invalidField('skill_id', TRAINER_MSG.skillInvalid);
  return row;
}
