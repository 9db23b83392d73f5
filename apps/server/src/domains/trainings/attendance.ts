import { type joinStatusRequest, MSG } from '@trainlab/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { trainingAttendances, trainings, trainingUsers } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { staffCanSee } from './access';

/**
 * Conference join status, basic form (the conference issue reworks it). An enrolled learner's join
 * and leave are recorded as a topic-less attendance row; managers and assigned trainers (hosts) may
 * call too, nothing is recorded for them. Anyone else: 404.
 */
async function participant(deps: Deps, auth: AuthContext, slug: string) {
  const [row] = await deps.db
    .select({ training: trainings, enrolment: trainingUsers })
    .from(trainings)
    .leftJoin(trainingUsers, and(eq(trainingUsers.training_id, trainings.id), eq(trainingUsers.user_id, auth.user.id)))
    .where(eq(trainings.slug, slug))
    .limit(1);
  if (!row) throw notFound();
  const moderator = await staffCanSee(deps, auth, row.training);
  if (!row.enrolment && !moderator) throw notFound();
  return { training: row.training, enrolment: row.enrolment, moderator };
}

const openConferenceRow = (enrolmentId: number) =>
  and(
    eq(trainingAttendances.training_user_id, enrolmentId),
    isNull(trainingAttendances.topic_id),
    isNull(trainingAttendances.left_at),
  );

/** /lp/update-training-join-status {slug, is_start | is_end, min (elapsed seconds), is_open} */
export async function updateJoinStatus(deps: Deps, auth: AuthContext, body: z.output<typeof joinStatusRequest>) {
  if (!body.is_start && !body.is_end) throw invalidField('is_start', 'The is start or is end field is required.');
  const { training, enrolment } = await participant(deps, auth, body.slug);
  if (!enrolment) return { message: MSG.joinRecorded };
  if (body.is_start) {
    await deps.db
      .insert(trainingAttendances)
      .values({ training_id: training.id, training_user_id: enrolment.id, user_id: auth.user.id, topic_id: null })
      .onConflictDoNothing();
    return { message: MSG.joinRecorded };
  }
  // Minutes: what the client reports (seconds / 60), never more than the server saw elapse.
  const elapsed = sql`floor(extract(epoch from (now() - ${trainingAttendances.joined_at})) / 60)`;
  const reported = body.min === undefined ? elapsed : sql`${Math.floor(body.min / 60)}`;
  const [closed] = await deps.db
    .update(trainingAttendances)
    .set({ left_at: sql`now()`, minutes: sql`greatest(0, least(${elapsed}, ${reported}))::int` })
    .where(openConferenceRow(enrolment.id))
    .returning({ minutes: trainingAttendances.minutes });
  return { message: MSG.joinRecorded, minutes: closed?.minutes ?? 0 };
}

/** /lp/get-training-join-count {slug}: this session plus the caller's open ones (1 = load, more = open elsewhere). */
export async function joinCount(deps: Deps, auth: AuthContext, slug: string) {
  const { enrolment, moderator } = await participant(deps, auth, slug);
  let open = 0;
  if (enrolment) {
    const [n] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(trainingAttendances)
      .where(openConferenceRow(enrolment.id));
    open = Number(n!.n);
  }
  return { count: open + 1, isModerator: moderator ? 1 : 0, isAssing: 1 };
}
