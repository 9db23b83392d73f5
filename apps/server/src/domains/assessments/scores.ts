import { and, desc, eq, sql } from 'drizzle-orm';
import { assessmentAttempts, assessments } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { settle } from './attempt';

/**
 * A learner's post-test percent in a training (the last submitted attempt), 'not taken', or
 * 'no test' when the training has no post-test. Used by the certificate rule.
 */
export async function postTestPercent(
  deps: Deps,
  trainingId: number,
  userId: number,
): Promise<number | 'not taken' | 'no test'> {
  const [test] = await deps.db
    .select({ id: assessments.id })
    .from(assessments)
    .where(and(eq(assessments.training_id, trainingId), eq(assessments.type, 2)))
    .limit(1);
  if (!test) return 'no test';
  const [open] = await deps.db
    .select()
    .from(assessmentAttempts)
    .where(
      and(
        eq(assessmentAttempts.assessment_id, test.id),
        eq(assessmentAttempts.user_id, userId),
        sql`${assessmentAttempts.submitted_at} is null`,
      ),
    )
    .limit(1);
  if (open) await settle(deps.db, open);
  const [last] = await deps.db
    .select({ score: assessmentAttempts.score, total: assessmentAttempts.total })
    .from(assessmentAttempts)
    .where(
      and(
        eq(assessmentAttempts.assessment_id, test.id),
        eq(assessmentAttempts.user_id, userId),
        sql`${assessmentAttempts.submitted_at} is not null`,
      ),
    )
    .orderBy(desc(assessmentAttempts.id))
    .limit(1);
  if (!last) return 'not taken';
  return last.total > 0 ? Math.round(((last.score ?? 0) * 100) / last.total) : 0;
}
