import { type joinStatusRequest, MSG } from '@trainlab/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { syllabusTopics, trainingAttendances, trainings, trainingUsers } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { staffCanSee, type TrainingRow } from './access';

/**
 * Conference attendance (spec 01 §4 'Conference join count', §7; conference issue).
 *
 * The server records join and leave itself from the conference WebSocket (domains/conference):
 * `openConferenceAttendance` when an enrolled learner joins the room, `closeConferenceAttendance`
 * when the learner leaves (explicitly, by 'end for all', or when a dropped connection's grace period
 * runs out: left_at is then the moment the connection dropped). Each join opens a topic-less row for
 * the training and, when a syllabus topic is running (status 1), a row for that topic; minutes are
 * measured by the server. Managers, trainers and guests have no enrolment: nothing is recorded.
 *
 * The client's /lp/update-training-join-status is still accepted for compatibility (old pages): its
 * is_start opens the topic-less row if none is open, its is_end closes it with
 * min(server-elapsed, client-reported) minutes, so a client can never add time.
 */

/** Live WebSocket sessions of an account in a training, per app instance (set by the conference domain). */
export type LiveSessionCounter = (trainingId: number, userId: number) => Promise<number>;
export const liveSessionCounters = new WeakMap<Deps, LiveSessionCounter>();

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

/** Whole minutes between joined_at and `at` (server clock), never negative. */
const minutesUntil = (at: Date) =>
  sql`greatest(0, floor(extract(epoch from (${at.toISOString()}::timestamptz - ${trainingAttendances.joined_at})) / 60))::int`;

/**
 * Opens the learner's conference rows: the training (topic-less) and the running topic, if any.
 * A row still open (reconnect within the grace period) is kept, so the time runs on.
 */
export async function openConferenceAttendance(
  deps: Deps,
  training: Pick<TrainingRow, 'id'>,
  enrolment: { id: number; user_id: number },
): Promise<void> {
  const [topic] = await deps.db
    .select({ id: syllabusTopics.id })
    .from(syllabusTopics)
    .where(and(eq(syllabusTopics.training_id, training.id), eq(syllabusTopics.status, 1)))
    .orderBy(syllabusTopics.id)
    .limit(1);
  const base = { training_id: training.id, training_user_id: enrolment.id, user_id: enrolment.user_id };
  const rows = [{ ...base, topic_id: null as number | null }];
  if (topic) rows.push({ ...base, topic_id: topic.id });
  for (const row of rows) await deps.db.insert(trainingAttendances).values(row).onConflictDoNothing();
}

/** Closes every open row of the enrolment in this training as of `leftAt`, with server-measured minutes. */
export async function closeConferenceAttendance(deps: Deps, enrolmentId: number, leftAt = new Date()): Promise<number> {
  const closed = await deps.db
    .update(trainingAttendances)
    .set({ left_at: leftAt, minutes: minutesUntil(leftAt) })
    .where(and(eq(trainingAttendances.training_user_id, enrolmentId), isNull(trainingAttendances.left_at)))
    .returning({ id: trainingAttendances.id });
  return closed.length;
}

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

/**
 * /lp/get-training-join-count {slug}: 1 + the caller's live conference connections in this training
 * (1 = the page may load, more = already open in another tab or browser). A connection that dropped
 * and is within its grace period no longer counts, so the page can reconnect.
 */
export async function joinCount(deps: Deps, auth: AuthContext, slug: string) {
  const { training, moderator } = await participant(deps, auth, slug);
  const live = (await liveSessionCounters.get(deps)?.(training.id, auth.user.id)) ?? 0;
  return { count: live + 1, isModerator: moderator ? 1 : 0, isAssing: 1 };
}
