import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { takeCalls, takeCallTrainers, trainings, trainingTrainers } from '../../db/schema';
import type { AuthContext } from '../../platform/http/auth-context';
import type { TrainerCtx } from './context';
import { PROFILE_CHECKLIST, profileMissing, profileRow } from './profile';

const SHOWN = 5;

/** /trainer-dashboard: what waits for the trainer, what they teach next, how complete the profile is. */
export async function trainerDashboard(ctx: TrainerCtx, auth: AuthContext) {
  const { db } = ctx.deps;
  const open = and(
    eq(takeCallTrainers.trainer_id, auth.user.id),
    eq(takeCallTrainers.status, 0),
    gte(takeCalls.end, sql`now()`),
  );
  const calls = await db
    .select({
      take_call_id: takeCalls.id,
      name: trainings.name,
      title: takeCalls.title,
      start: takeCalls.start,
      end: takeCalls.end,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(takeCallTrainers)
    .innerJoin(takeCalls, eq(takeCalls.id, takeCallTrainers.take_call_id))
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .where(open)
    .orderBy(asc(takeCalls.start), asc(takeCalls.id))
    .limit(SHOWN);
  const assigned = await db
    .select({
      name: trainings.name,
      slug: trainings.slug,
      start_date: trainings.start_date,
      end_date: trainings.end_date,
      next_topic: sql<
        string | null
      >`(select st.session_topic from syllabus_topics st where st.training_id = ${trainings.id} and st.status = 0 and st.start_time >= now() order by st.start_time, st.id limit 1)`,
      next_time: sql<
        string | null
      >`(select st.start_time from syllabus_topics st where st.training_id = ${trainings.id} and st.status = 0 and st.start_time >= now() order by st.start_time, st.id limit 1)`,
    })
    .from(trainingTrainers)
    .innerJoin(trainings, eq(trainings.id, trainingTrainers.training_id))
    .where(and(eq(trainingTrainers.trainer_id, auth.user.id), gte(trainings.end_date, sql`now()`)))
    .orderBy(asc(trainings.start_date), asc(trainings.id))
    .limit(SHOWN);
  const missing = profileMissing(await profileRow(ctx, auth.user.id));
  return {
    open_take_calls: calls.map(({ total: _t, ...c }) => ({
      ...c,
      start: c.start.toISOString(),
      end: c.end.toISOString(),
    })),
    open_take_call_count: calls[0]?.total ?? 0,
    assigned_trainings: assigned.map((t) => ({
      name: t.name,
      slug: t.slug,
      start_date: t.start_date.toISOString(),
      end_date: t.end_date.toISOString(),
      next_session:
        t.next_topic && t.next_time
          ? { session_topic: t.next_topic, start_time: new Date(t.next_time).toISOString() }
          : null,
    })),
    profile_completeness: Math.round((100 * (PROFILE_CHECKLIST.length - missing.length)) / PROFILE_CHECKLIST.length),
    profile_missing: missing,
  };
}
