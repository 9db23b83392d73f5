import { count, eq } from 'drizzle-orm';
import { trainingTrainers, trainingUsers } from '../../db/schema';
import type { Deps } from '../../platform/deps';

/**
 * How many people a training's conference may hold: its enrolled learners, its assigned trainers
 * and one manager. With MEETING_PROVIDER=builtin and JANUS_URL, a class larger than
 * MESH_MAX_PARTICIPANTS meets through Janus (a mesh holds about 6 cameras: docs/benchmarks.md).
 */
export async function classSize(deps: Deps, trainingId: number): Promise<number> {
  const [learners] = await deps.db
    .select({ n: count() })
    .from(trainingUsers)
    .where(eq(trainingUsers.training_id, trainingId));
  const [trainers] = await deps.db
    .select({ n: count() })
    .from(trainingTrainers)
    .where(eq(trainingTrainers.training_id, trainingId));
  return Number(learners?.n ?? 0) + Number(trainers?.n ?? 0) + 1;
}
