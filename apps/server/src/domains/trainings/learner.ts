import { MSG, type myTrainingsRequest, type ratingRequest, TOPIC_STATUS, TRAINING_STATUS } from '@trainlab/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { syllabusTopics, topicRatings, trainingAttendances, trainings, trainingUsers } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { learnerVms } from '../labs/views';
import { type TrainingRow, topicForLearner, trainingForLearner } from './access';
import { trainingCounts, upcoming } from './rows';
import { averageRating, toTopic } from './syllabus';

const enrolmentColumns = {
  id: trainings.id,
  name: trainings.name,
  slug: trainings.slug,
  link: trainings.link,
  start_date: trainings.start_date,
  end_date: trainings.end_date,
  status: trainings.status,
  totalTopics: trainingCounts.totalTopics,
  is_download_certificate: trainingUsers.is_download_certificate,
};

/** The caller's enrolments, oldest start first; `upcomingOnly` for the dashboard. */
async function enrolments(deps: Deps, auth: AuthContext, upcomingOnly: boolean) {
  const mine = eq(trainingUsers.user_id, auth.user.id);
  return deps.db
    .select(enrolmentColumns)
    .from(trainingUsers)
    .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
    .where(upcomingOnly ? and(mine, upcoming()) : mine)
    .orderBy(asc(trainings.start_date), asc(trainings.id));
}

/** /lpu/get-trainings: one page of the caller's enrolments (the list convention). */
export async function myTrainings(deps: Deps, auth: AuthContext, q: z.output<typeof myTrainingsRequest>) {
  const window = pageWindow(q);
  const where = and(eq(trainingUsers.user_id, auth.user.id), searchWhere(q.search, [trainings.name]));
  const rows = await deps.db
    .select({ ...enrolmentColumns, total: totalOver() })
    .from(trainingUsers)
    .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        { name: trainings.name, start_date: trainings.start_date, end_date: trainings.end_date },
        [asc(trainings.start_date)],
        trainings.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toPage(
    rows,
    window,
    ({ total: _total, ...r }) => ({
      ...r,
      start_date: r.start_date.toISOString(),
      end_date: r.end_date.toISOString(),
      totalTopics: Number(r.totalTopics),
    }),
    async () => {
      const [n] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(trainingUsers)
        .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
        .where(where);
      return Number(n?.n ?? 0);
    },
  );
}

/** /lpu/dashboard-data: the caller's upcoming trainings and their labs (d_vm_data: the newest; vms: all). */
export async function learnerDashboard(deps: Deps, auth: AuthContext) {
  const rows = await enrolments(deps, auth, true);
  const labs = await learnerVms(deps, auth.user.id);
  return {
    list: rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      start_date: r.start_date.toISOString(),
      end_date: r.end_date.toISOString(),
    })),
    d_vm_data: labs[0] ?? null,
    vms: labs,
  };
}

/** Started: the training status is 1, or one of its topics is Starting. */
async function hasStarted(deps: Deps, training: TrainingRow): Promise<boolean> {
  if (training.status === TRAINING_STATUS.started) return true;
  const rows = await deps.db
    .select({ id: syllabusTopics.id })
    .from(syllabusTopics)
    .where(and(eq(syllabusTopics.training_id, training.id), eq(syllabusTopics.status, TOPIC_STATUS.starting)))
    .limit(1);
  return rows.length > 0;
}

/** /lpu/training-start-status */
export async function startStatus(deps: Deps, auth: AuthContext, slug: string) {
  const { training } = await trainingForLearner(deps, auth, slug);
  return { status: (await hasStarted(deps, training)) ? 1 : 0 };
}

/** /check-training-status */
export async function checkStatus(deps: Deps, auth: AuthContext, slug: string) {
  const { training } = await trainingForLearner(deps, auth, slug);
  const [n] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(syllabusTopics)
    .where(eq(syllabusTopics.training_id, training.id));
  return {
    status: training.status,
    start_status: (await hasStarted(deps, training)) ? 1 : 0,
    totalTopics: Number(n!.n),
  };
}

/** A timestamptz as ISO 8601 text in UTC, like Date.toISOString(). */
const isoText = (expr: SQL) => sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** /get-user-training-details: the topics, with the caller's first join, last leave and rating. */
export async function myTopics(deps: Deps, auth: AuthContext, slug: string) {
  const { training, enrolment } = await trainingForLearner(deps, auth, slug);
  const mine = sql.raw(`ta.topic_id = "syllabus_topics"."id" and ta.training_user_id = ${Number(enrolment.id)}`);
  const rows = await deps.db
    .select({
      topic: syllabusTopics,
      rating: averageRating,
      ustart: sql<
        string | null
      >`(select ${isoText(sql.raw('min(ta.joined_at)'))} from training_attendances ta where ${mine})`,
      uend: sql<
        string | null
      >`(select ${isoText(sql.raw('max(ta.left_at)'))} from training_attendances ta where ${mine})`,
      urating: topicRatings.rating,
    })
    .from(syllabusTopics)
    .leftJoin(topicRatings, and(eq(topicRatings.topic_id, syllabusTopics.id), eq(topicRatings.user_id, auth.user.id)))
    .where(eq(syllabusTopics.training_id, training.id))
    .orderBy(asc(syllabusTopics.id));
  return {
    list: rows.map((r) => ({
      ...toTopic({ ...r.topic, rating: r.rating }),
      ustart_time: r.ustart,
      uend_time: r.uend,
      urating: r.urating,
    })),
    name: training.name,
  };
}

/** /add-training-attendance {id: topic id}: only while the topic is Starting; idempotent while joined. */
export async function joinTopic(deps: Deps, auth: AuthContext, topicId: number) {
  const { topic, enrolment } = await topicForLearner(deps, auth, topicId);
  if (topic.status !== TOPIC_STATUS.starting) throw new AppError(422, MSG.waitingForHost, { id: [MSG.waitingForHost] });
  const inserted = await deps.db
    .insert(trainingAttendances)
    .values({
      training_id: topic.training_id,
      training_user_id: enrolment.id,
      user_id: auth.user.id,
      topic_id: topic.id,
    })
    .onConflictDoNothing()
    .returning({ id: trainingAttendances.id });
  if (inserted[0]) return { message: MSG.attendanceAdded, id: inserted[0].id };
  const [open] = await deps.db
    .select({ id: trainingAttendances.id })
    .from(trainingAttendances)
    .where(
      and(
        eq(trainingAttendances.training_user_id, enrolment.id),
        eq(trainingAttendances.topic_id, topic.id),
        sql`${trainingAttendances.left_at} is null`,
      ),
    );
  return { message: MSG.attendanceAdded, id: open!.id };
}

/** /add-training-rating {rating, id: topic id}: completed topics only; a new rating replaces the old. */
export async function rateTopic(deps: Deps, auth: AuthContext, body: z.output<typeof ratingRequest>) {
  const { topic } = await topicForLearner(deps, auth, body.id);
  if (topic.status !== TOPIC_STATUS.completed)
    throw new AppError(422, MSG.ratingNotAllowed, { id: [MSG.ratingNotAllowed] });
  await deps.db
    .insert(topicRatings)
    .values({ topic_id: topic.id, user_id: auth.user.id, rating: body.rating })
    .onConflictDoUpdate({ target: [topicRatings.topic_id, topicRatings.user_id], set: { rating: body.rating } });
  return { message: MSG.ratingAdded };
}
