import { MSG, type setTimeExtensionRequest, type timeExtensionsRequest } from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { assessmentTimeExtensions, trainingUsers, users } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { trainingForManager } from '../trainings/access';

/**
 * Extra time per learner on a training's tests (issue 21): an accommodation the provider gives those
 * who need it, in percent of each test's time. Read when an attempt starts, so an attempt already
 * running keeps its deadline.
 */

/** The learner's extra time on this training's tests, in percent (0 without). */
export async function extraPercentFor(db: Db, trainingId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ extra: assessmentTimeExtensions.extra_percent })
    .from(assessmentTimeExtensions)
    .where(and(eq(assessmentTimeExtensions.training_id, trainingId), eq(assessmentTimeExtensions.user_id, userId)))
    .limit(1);
  return row?.extra ?? 0;
}

/** A test's time in seconds with the learner's extension (rounded up to whole seconds). */
export const extendedSeconds = (seconds: number, extraPercent: number) =>
  Math.ceil((seconds * (100 + extraPercent)) / 100);

/** set-assessment-time-extension: only for a learner enrolled in the manager's training; 0 removes it. */
export async function setTimeExtension(deps: Deps, auth: AuthContext, body: z.output<typeof setTimeExtensionRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  const [enrolled] = await deps.db
    .select({ id: trainingUsers.id })
    .from(trainingUsers)
    .where(and(eq(trainingUsers.training_id, training.id), eq(trainingUsers.user_id, body.user_id)))
    .limit(1);
  if (!enrolled) throw invalidField('user_id', 'The learner is not enrolled in this training.');
  const key = and(
    eq(assessmentTimeExtensions.training_id, training.id),
    eq(assessmentTimeExtensions.user_id, body.user_id),
  );
  if (body.extra_percent === 0) {
    await deps.db.delete(assessmentTimeExtensions).where(key);
  } else {
    await deps.db
      .insert(assessmentTimeExtensions)
      .values({ training_id: training.id, user_id: body.user_id, extra_percent: body.extra_percent })
      .onConflictDoUpdate({
        target: [assessmentTimeExtensions.training_id, assessmentTimeExtensions.user_id],
        set: { extra_percent: body.extra_percent, updated_at: new Date() },
      });
  }
  return { message: MSG.recordUpdated };
}

type Sort = 'name' | 'extra_percent';

/** get-assessment-time-extensions: one page of the training's learners who have extra time. */
export async function timeExtensions(deps: Deps, auth: AuthContext, q: z.output<typeof timeExtensionsRequest>) {
  const training = await trainingForManager(deps, auth, q.slug);
  const window = pageWindow(q);
  const name = sql<string>`${users.first_name} || ' ' || ${users.last_name}`;
  const filter = and(eq(assessmentTimeExtensions.training_id, training.id), searchWhere(q.search, [name, users.email]));
  const rows = await deps.db
    .select({
      user_id: users.id,
      name,
      email: users.email,
      extra_percent: assessmentTimeExtensions.extra_percent,
      total: totalOver(),
    })
    .from(assessmentTimeExtensions)
    .innerJoin(users, eq(users.id, assessmentTimeExtensions.user_id))
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort as Sort | `-${Sort}` | undefined,
        { name, extra_percent: assessmentTimeExtensions.extra_percent },
        [sql`${users.first_name} asc`, sql`${users.last_name} asc`],
        users.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toPage(
    rows,
    window,
    ({ total: _total, ...row }) => row,
    async () => {
      const [r] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(assessmentTimeExtensions)
        .innerJoin(users, eq(users.id, assessmentTimeExtensions.user_id))
        .where(filter);
      return Number(r?.n ?? 0);
    },
  );
}
