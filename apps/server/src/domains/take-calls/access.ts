import { and, eq } from 'drizzle-orm';
import { takeCalls, takeCallTrainers, trainings } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { managerTenant, tenantWhere } from '../../platform/tenancy';

/**
 * Who reaches a take call: the managers of its training's tenant, and the trainers it was sent to
 * (through their own take-call detail). Anything else answers 404, as if it did not exist.
 */

export type TakeCallRow = typeof takeCalls.$inferSelect;
export type TrainingRow = typeof trainings.$inferSelect;
export type DetailRow = typeof takeCallTrainers.$inferSelect;

export async function takeCallForManager(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await deps.db
    .select({ takeCall: takeCalls, training: trainings })
    .from(takeCalls)
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .where(and(eq(takeCalls.id, id), tenantWhere(trainings, managerTenant(auth))));
  if (!row) throw notFound();
  return row;
}

/** The caller's detail row in a take call, by the take call's id or by the detail's id. */
export async function detailForTrainer(
  deps: Deps,
  auth: AuthContext,
  by: { takeCallId: number } | { detailId: number },
) {
  const [row] = await deps.db
    .select({ detail: takeCallTrainers, takeCall: takeCalls, training: trainings })
    .from(takeCallTrainers)
    .innerJoin(takeCalls, eq(takeCalls.id, takeCallTrainers.take_call_id))
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .where(
      and(
        eq(takeCallTrainers.trainer_id, auth.user.id),
        'takeCallId' in by ? eq(takeCallTrainers.take_call_id, by.takeCallId) : eq(takeCallTrainers.id, by.detailId),
      ),
    );
  if (!row) throw notFound();
  return row;
}
