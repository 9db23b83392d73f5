import {
  type addSyllabusRequest,
  IMPORT_TEMPLATES,
  MSG,
  syllabusImportRow,
  TOPIC_STATUS,
  TRAINING_STATUS,
} from '@trainlab/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { syllabusTopics, topicRatings, trainingAttendances, trainings, users } from '../../db/schema';
import { insertChunked } from '../../platform/db/insert-chunked';
import type { Deps } from '../../platform/deps';
import { AppError, invalidField } from '../../platform/errors';
import { readUpload, streamImport } from '../../platform/excel';
import type { AuthContext } from '../../platform/http/auth-context';
import { type TopicRow, topicForStaff, trainingForManager, trainingForStaff } from './access';
import { iso } from './rows';

export const averageRating = sql<
  string | null
>`(select round(avg(tr.rating)::numeric, 1) from topic_ratings tr where tr.topic_id = "syllabus_topics"."id")`;

export const toTopic = (t: TopicRow & { rating: string | number | null }) => ({
  id: t.id,
  session_topic: t.session_topic,
  start_time: iso(t.start_time),
  end_time: iso(t.end_time),
  no_of_min: t.no_of_min,
  rating: t.rating === null ? null : Number(t.rating),
  status: t.status,
  recording_url: t.recording_url,
});

export async function topicsOf(deps: Deps, trainingId: number) {
  const rows = await deps.db
    .select({ topic: syllabusTopics, rating: averageRating })
    .from(syllabusTopics)
    .where(eq(syllabusTopics.training_id, trainingId))
    .orderBy(asc(syllabusTopics.id));
  return rows.map((r) => toTopic({ ...r.topic, rating: r.rating }));
}

/** /get-training-syllabus */
export async function syllabus(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingForStaff(deps, auth, { slug });
  return { list: await topicsOf(deps, training.id) };
}

const when = (v: string | null) => (v ? new Date(v) : null);

/** /add-training-syllabus */
export async function addTopic(deps: Deps, auth: AuthContext, body: z.output<typeof addSyllabusRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  const [row] = await deps.db
    .insert(syllabusTopics)
    .values({
      training_id: training.id,
      session_topic: body.topic_name,
      start_time: when(body.start_time),
      end_time: when(body.end_time),
    })
    .returning({ id: syllabusTopics.id });
  return { message: MSG.recordAdded, id: row!.id };
}

/** /upload-training-syllabus: topics from Excel, written batch by batch in one transaction: all rows or none. */
export async function importTopics(deps: Deps, auth: AuthContext, request: FastifyRequest) {
  const upload = await readUpload(request, deps.config.IMPORT_MAX_FILE_BYTES);
  const slug = upload.fields.slug?.trim();
  if (!slug) throw invalidField('slug', 'The slug field is required.');
  const training = await trainingForManager(deps, auth, slug);
  const count = await streamImport(
    {
      maxRows: deps.config.IMPORT_MAX_ROWS,
      file: upload.file,
      filename: upload.filename,
      schema: syllabusImportRow,
      columns: IMPORT_TEMPLATES['training-syllabus'].columns,
    },
    (rows) =>
      deps.db.transaction(async (tx) => {
        for await (const batch of rows) {
          const values = batch.map(({ data }) => ({
            training_id: training.id,
            session_topic: data.topic_name,
            start_time: when(data.start_time),
            end_time: when(data.end_time),
          }));
          if (!rows.failed) await insertChunked(tx, syllabusTopics, values);
        }
        return rows.count;
      }),
  );
  return { message: MSG.recordAdded, count };
}

/** /delete-training-syllabus: only a topic that has not started (its attendance would go with it). */
export async function deleteTopic(deps: Deps, auth: AuthContext, id: number) {
  const { topic } = await topicForStaff(deps, auth, id, { trainers: false });
  const deleted = await deps.db
    .delete(syllabusTopics)
    .where(and(eq(syllabusTopics.id, topic.id), eq(syllabusTopics.status, TOPIC_STATUS.schedule)))
    .returning({ id: syllabusTopics.id });
  if (deleted.length === 0) throw new AppError(422, MSG.topicStarted, { id: [MSG.topicStarted] });
  return { message: MSG.recordDeleted };
}

const minutesSince = (col: unknown) => sql<number>`greatest(0, floor(extract(epoch from (now() - ${col})) / 60))::int`;

/**
 * /update-training-start-status: 0 Schedule → 1 Starting (the training becomes started) →
 * 2 Completed (duration recorded; learners still in the topic are checked out).
 */
export async function advanceTopic(deps: Deps, auth: AuthContext, id: number) {
  const { topic, training } = await topicForStaff(deps, auth, id, { trainers: true });
  if (topic.status >= TOPIC_STATUS.completed)
    throw new AppError(422, MSG.topicAlreadyCompleted, { id: [MSG.topicAlreadyCompleted] });
  const next = topic.status + 1;
  const changed = await deps.db.transaction(async (tx) => {
    const set =
      next === TOPIC_STATUS.starting
        ? {
            status: next,
            started_at: sql`now()`,
            start_time: sql`coalesce(${syllabusTopics.start_time}, now())`,
          }
        : {
            status: next,
            ended_at: sql`now()`,
            end_time: sql`coalesce(${syllabusTopics.end_time}, now())`,
            no_of_min: minutesSince(sql`coalesce(${syllabusTopics.started_at}, now())`),
          };
    const rows = await tx
      .update(syllabusTopics)
      .set(set)
      .where(and(eq(syllabusTopics.id, topic.id), eq(syllabusTopics.status, topic.status)))
      .returning({ id: syllabusTopics.id });
    if (rows.length === 0) return false;
    if (next === TOPIC_STATUS.starting) {
      await tx
        .update(trainings)
        .set({ status: TRAINING_STATUS.started, updated_at: new Date() })
        .where(and(eq(trainings.id, training.id), eq(trainings.status, TRAINING_STATUS.notStarted)));
    } else {
      await tx
        .update(trainingAttendances)
        .set({ left_at: sql`now()`, minutes: minutesSince(trainingAttendances.joined_at) })
        .where(and(eq(trainingAttendances.topic_id, topic.id), isNull(trainingAttendances.left_at)));
    }
    return true;
  });
  // Someone else advanced it meanwhile: answer the state it is in now.
  if (!changed) {
    const [now] = await deps.db
      .select({ status: syllabusTopics.status })
      .from(syllabusTopics)
      .where(eq(syllabusTopics.id, topic.id));
    return { message: MSG.topicStatusUpdated, status: now?.status ?? topic.status };
  }
  return { message: MSG.topicStatusUpdated, status: next };
}

/** /training-attendances-details {id: training id}: one row per join, per learner and topic. */
export async function attendanceDetails(deps: Deps, auth: AuthContext, trainingId: number) {
  const training = await trainingForStaff(deps, auth, { id: trainingId });
  const rows = await deps.db
    .select({
      user_id: users.id,
      first_name: users.first_name,
      last_name: users.last_name,
      session_topic: sql<string>`coalesce(${syllabusTopics.session_topic}, ${trainings.name})`,
      joined_at: trainingAttendances.joined_at,
      left_at: trainingAttendances.left_at,
      minutes: trainingAttendances.minutes,
      rating: topicRatings.rating,
    })
    .from(trainingAttendances)
    .innerJoin(users, eq(users.id, trainingAttendances.user_id))
    .innerJoin(trainings, eq(trainings.id, trainingAttendances.training_id))
    .leftJoin(syllabusTopics, eq(syllabusTopics.id, trainingAttendances.topic_id))
    .leftJoin(
      topicRatings,
      and(
        eq(topicRatings.topic_id, trainingAttendances.topic_id),
        eq(topicRatings.user_id, trainingAttendances.user_id),
      ),
    )
    .where(eq(trainingAttendances.training_id, training.id))
    .orderBy(
      asc(trainingAttendances.topic_id),
      asc(users.last_name),
      asc(users.id),
      asc(trainingAttendances.joined_at),
    );
  return {
    list: rows.map((r) => ({
      user_id: r.user_id,
      first_name: r.first_name,
      last_name: r.last_name,
      session_topic: r.session_topic,
      start_time: r.joined_at.toISOString(),
      end_time: iso(r.left_at),
      minutes: r.minutes,
      rating: r.rating,
    })),
  };
}
