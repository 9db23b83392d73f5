import { type assignTrainersRequest, MSG } from '@trainlab/contract';
import { and, arrayContains, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { trainings, trainingTrainers, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { trainingForManager } from './access';
import { trainingRows } from './rows';

const activeTrainer = () => and(arrayContains(users.roles, ['trainer']), eq(users.status, 1), eq(users.is_approved, 1));
const trainerColumns = { id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email };

/** /get-trainers-for-assignment: active trainer accounts (trainers are platform-wide, registered by the admin). */
export async function trainersForAssignment(deps: Deps) {
  return {
    list: await deps.db
      .select(trainerColumns)
      .from(users)
      .where(activeTrainer())
      .orderBy(asc(users.first_name), asc(users.id)),
  };
}

/** /assign-trainers-to-training: replaces the training's trainers with the given active trainers. */
export async function assignTrainers(deps: Deps, auth: AuthContext, body: z.output<typeof assignTrainersRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  const ids = [...new Set(body.trainer_ids)];
  const found = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), activeTrainer()));
  if (found.length !== ids.length) throw invalidField('trainer_ids', MSG.trainerNotFound);
  await deps.db.transaction(async (tx) => {
    await tx.delete(trainingTrainers).where(eq(trainingTrainers.training_id, training.id));
    await tx.insert(trainingTrainers).values(ids.map((trainer_id) => ({ training_id: training.id, trainer_id })));
  });
  return { message: MSG.trainersAssigned };
}

/** /get-training-trainers */
export async function trainingTrainerList(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingForManager(deps, auth, slug);
  return {
    list: await deps.db
      .select(trainerColumns)
      .from(trainingTrainers)
      .innerJoin(users, eq(users.id, trainingTrainers.trainer_id))
      .where(eq(trainingTrainers.training_id, training.id))
      .orderBy(asc(users.first_name), asc(users.id)),
  };
}

/** /trainer/assigned-trainings: every training assigned to the caller, upcoming and past. */
export async function assignedTrainings(deps: Deps, auth: AuthContext) {
  const assigned = deps.db
    .select({ id: trainingTrainers.training_id })
    .from(trainingTrainers)
    .where(eq(trainingTrainers.trainer_id, auth.user.id));
  return { list: await trainingRows(deps.db, inArray(trainings.id, assigned)) };
}
