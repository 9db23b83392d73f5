import {
  type ListQuery,
  MSG,
  type REFERENCE_SORT_KEYS,
  type referenceRequest,
  type updateReferenceRequest,
} from '@trainlab/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { skills, trainerReferences } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalAtFirstRow, totalOver } from '../../platform/http/paging';
import { ownSkill } from './skills';

const columns = {
  id: trainerReferences.id,
  skill_id: trainerReferences.skill_id,
  name: skills.name,
  company_name: trainerReferences.company_name,
  company_description: trainerReferences.company_description,
  training_conducted_date: trainerReferences.training_conducted_date,
};

export async function referenceList(deps: Deps, auth: AuthContext, q: ListQuery<(typeof REFERENCE_SORT_KEYS)[number]>) {
  const w = pageWindow(q);
  const mine = eq(trainerReferences.trainer_id, auth.user.id);
  const where = and(mine, searchWhere(q.search, [trainerReferences.company_name, skills.name]));
  const query = () =>
    deps.db
      .select({ ...columns, total: totalOver() })
      .from(trainerReferences)
      .innerJoin(skills, eq(skills.id, trainerReferences.skill_id))
      .where(where);
  const rows = await query()
    .orderBy(
      ...orderFor(
        q.sort,
        {
          company_name: trainerReferences.company_name,
          training_conducted_date: trainerReferences.training_conducted_date,
          name: skills.name,
        },
        [desc(trainerReferences.training_conducted_date)],
        trainerReferences.id,
      ),
    )
    .limit(w.limit)
    .offset(w.offset);
  return toPage(
    rows,
    w,
    ({ total: _t, ...r }) => r,
    () => totalAtFirstRow(query().limit(1)),
  );
}

async function myReference(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await deps.db
    .select(columns)
    .from(trainerReferences)
    .innerJoin(skills, eq(skills.id, trainerReferences.skill_id))
    .where(and(eq(trainerReferences.id, id), eq(trainerReferences.trainer_id, auth.user.id)));
  if (!row) throw notFound();
  return row;
}

export const getReference = async (deps: Deps, auth: AuthContext, id: number) => ({
  success: await myReference(deps, auth, id),
});

const values = (b: z.output<typeof referenceRequest>) => ({
  skill_id: b.skill_id,
  company_name: b.company_name,
  company_description: b.company_description,
  training_conducted_date: b.training_conducted_date,
});

export async function addReference(deps: Deps, auth: AuthContext, b: z.output<typeof referenceRequest>) {
  await ownSkill(deps, auth, b.skill_id);
  const [row] = await deps.db
    .insert(trainerReferences)
    .values({ trainer_id: auth.user.id, ...values(b) })
    .returning({ id: trainerReferences.id });
  return { message: MSG.recordAdded, id: row!.id };
}

export async function updateReference(deps: Deps, auth: AuthContext, b: z.output<typeof updateReferenceRequest>) {
  const row = await myReference(deps, auth, b.id);
  await ownSkill(deps, auth, b.skill_id);
  await deps.db.update(trainerReferences).set(values(b)).where(eq(trainerReferences.id, row.id));
  return { message: MSG.recordUpdated, id: row.id };
}

export async function deleteReference(deps: Deps, auth: AuthContext, id: number) {
  const row = await myReference(deps, auth, id);
  await deps.db.delete(trainerReferences).where(eq(trainerReferences.id, row.id));
  return { message: MSG.recordDeleted };
}
