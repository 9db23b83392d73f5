import { and, eq } from 'drizzle-orm';
import { takeCalls, takeCallTrainers, trainings } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { isManager, managedBy } from '../../platform/tenancy';
import type { TakeCallRow } from './access';

/**
 * The take call's meeting room in the built-in conference: its training's managers (the tenant that
 * may see the take call) moderate; the trainers the take call was sent to join as participants.
 * Anyone else — another tenant, an uninvited trainer, a learner — is told it does not exist (404).
 */
export async function takeCallRoomMember(
  deps: Deps,
  auth: AuthContext,
  by: { id: number } | { slug: string },
): Promise<{ takeCall: TakeCallRow; moderator: boolean; trainingName: string }> {
  const [row] = await deps.db
    .select({ takeCall: takeCalls, training: trainings })
    .from(takeCalls)
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .where('id' in by ? eq(takeCalls.id, by.id) : eq(takeCalls.slug, by.slug))
    .limit(1);
  if (!row) throw notFound();
  if (isManager(auth) && managedBy(auth, row.training))
    return { takeCall: row.takeCall, moderator: true, trainingName: row.training.name };
  const [invited] = await deps.db
    .select({ id: takeCallTrainers.id })
    .from(takeCallTrainers)
    .where(and(eq(takeCallTrainers.take_call_id, row.takeCall.id), eq(takeCallTrainers.trainer_id, auth.user.id)))
    .limit(1);
  if (!invited) throw notFound();
  return { takeCall: row.takeCall, moderator: false, trainingName: row.training.name };
}
