import { COURSE_MSG, type ListQuery, type TOPIC_SORT_KEYS, topicFields } from '@trainlab/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { courseModules, courses, courseTopics } from '../../db/schema';
import { afterCommit } from '../../platform/db/ambient-transaction';
import type { Deps } from '../../platform/deps';
import { notFound, ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import type { FileStore } from '../../platform/ports/files';
import { makeSlug } from '../../platform/slug';
import { courseForManager, moduleForManager, type TopicRow, topicForManager } from './access';
import { takeFinishedUpload } from './uploads';
import { checkVideo, deleteTopicMedia, enqueueVideo, readTopicUpload, storeOriginal } from './video';

export interface CourseCtx {
  deps: Deps;
  files: FileStore;
}

const idText = /^\d{1,9}$/;

/** Validates the text fields of a topic form; on update also topic_id. */
function topicFormErrors(fields: Record<string, string>, opts: { update: boolean }) {
  const errors: Record<string, string[]> = {};
  const parsed = topicFields.safeParse(fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      const value = fields[field];
      const msg =
        value === undefined || value.trim() === ''
          ? `The ${field.replace(/_/g, ' ')} field is required.`
          : issue.code === 'too_big'
            ? `The ${field.replace(/_/g, ' ')} must not be greater than ${issue.maximum} characters.`
            : `The ${field.replace(/_/g, ' ')} is invalid.`;
      errors[field] ??= [msg];
    }
  }
  if (opts.update) {
    const id = fields.topic_id?.trim();
    if (!id) errors.topic_id = ['The topic id field is required.'];
    else if (!idText.test(id) || Number(id) < 1) errors.topic_id = ['The topic id is invalid.'];
  }
  return { errors, data: parsed.success ? parsed.data : null };
}

/** /create-all-course (multipart): a topic with its video (a file part or a finished tus upload); processing is queued. */
export async function createTopic(ctx: CourseCtx, auth: AuthContext, request: FastifyRequest) {
  const { deps, files } = ctx;
  const upload = await readTopicUpload(deps, request);
  try {
    const { errors, data } = topicFormErrors(upload.fields, { update: false });
    const tusId = tusUploadId(upload);
    if (!upload.video && !tusId) {
      errors.course_url = [upload.fields.__empty_file ? COURSE_MSG.videoUnreadable : COURSE_MSG.videoRequired];
    }
    if (Object.keys(errors).length || !data) throw new ValidationError(errors);
    const { module } = await moduleForManager(deps, auth, data.module_id);
    if (upload.video) await checkVideo(deps, upload.video.file);
    const values = {
      slug: makeSlug(data.name),
      module_id: module.id,
      name: data.name,
      description: data.description,
      position: sql`(select coalesce(max(position), 0) + 1 from course_topics where module_id = ${module.id})`,
      video_status: 'processing',
    };
    if (!upload.video && tusId) {
      // the finished upload is already in the file store: the topic takes the file over
      const topic = await deps.db.transaction(async (tx) => {
        const db = tx as unknown as Deps['db'];
        const taken = await takeFinishedUpload(db, auth, tusId);
        const [row] = await db
          .insert(courseTopics)
          .values({ ...values, video_bytes: taken.bytes, video_key: taken.key })
          .returning();
        await enqueueVideo({ db }, row!.id, taken.key);
        return row!;
      });
      return { message: COURSE_MSG.topicCreated, id: topic.id, slug: topic.slug, video_status: 'processing' as const };
    }
    const video = upload.video!;
    const [topic] = await deps.db
      .insert(courseTopics)
      .values({ ...values, video_bytes: video.bytes })
      .returning();
    let key: string;
    try {
      key = await storeOriginal(files, topic!.id, video.file);
    } catch (e) {
      await deps.db.delete(courseTopics).where(eq(courseTopics.id, topic!.id));
      throw e;
    }
    await deps.db.transaction(async (tx) => {
      await tx.update(courseTopics).set({ video_key: key }).where(eq(courseTopics.id, topic!.id));
      await enqueueVideo({ db: tx as unknown as Deps['db'] }, topic!.id, key);
    });
    return { message: COURSE_MSG.topicCreated, id: topic!.id, slug: topic!.slug, video_status: 'processing' as const };
  } finally {
    await upload.cleanup();
  }
}

/** The optional `tus_upload_id` field, when no file part was sent. */
const tusUploadId = (upload: { fields: Record<string, string> }): string | null =>
  upload.fields.tus_upload_id?.trim() || null;

/** /update-all-course (multipart): name, description, module; a new video replaces the old one. */
export async function updateTopic(ctx: CourseCtx, auth: AuthContext, request: FastifyRequest) {
  const { deps, files } = ctx;
  const upload = await readTopicUpload(deps, request);
  try {
    const { errors, data } = topicFormErrors(upload.fields, { update: true });
    if (upload.fields.__empty_file) errors.course_url = [COURSE_MSG.videoUnreadable];
    if (Object.keys(errors).length || !data) throw new ValidationError(errors);
    const current = await topicForManager(deps, auth, { id: Number(upload.fields.topic_id) });
    const { module } = await moduleForManager(deps, auth, data.module_id);
    if (module.course_id !== current.course.id) {
      throw new ValidationError({ module_id: ['The selected module id is invalid.'] });
    }
    let newKey: string | null = null;
    let newBytes = 0;
    if (upload.video) {
      await checkVideo(deps, upload.video.file);
      newKey = await storeOriginal(files, current.topic.id, upload.video.file);
      newBytes = upload.video.bytes;
    }
    const tusId = upload.video ? null : tusUploadId(upload);
    const old = current.topic;
    await deps.db.transaction(async (tx) => {
      if (tusId) {
        const taken = await takeFinishedUpload(tx as unknown as Deps['db'], auth, tusId);
        newKey = taken.key;
        newBytes = taken.bytes;
      }
      await tx
        .update(courseTopics)
        .set({
          name: data.name,
          description: data.description,
          module_id: module.id,
          updated_at: new Date(),
          ...(newKey
            ? { video_key: newKey, video_bytes: newBytes, video_status: 'processing', video_error: null }
            : {}),
        })
        .where(eq(courseTopics.id, old.id));
      if (newKey) await enqueueVideo({ db: tx as unknown as Deps['db'] }, old.id, newKey);
    });
    // the old original goes once the change is committed; the old package stays playable until the new one is ready
    const oldKey = old.video_key;
    if (newKey && oldKey) await afterCommit(() => files.delete(oldKey));
    const status = (newKey ? 'processing' : old.video_status) as 'processing' | 'ready' | 'failed';
    return { message: COURSE_MSG.topicUpdated, id: old.id, slug: old.slug, video_status: status };
  } finally {
    await upload.cleanup();
  }
}

/** /delete-topic: the topic, its progress rows and every stored file of it. */
export async function deleteTopic(ctx: CourseCtx, auth: AuthContext, slug: string) {
  const { topic } = await topicForManager(ctx.deps, auth, { slug });
  await ctx.deps.db.delete(courseTopics).where(eq(courseTopics.id, topic.id));
  // files cannot be rolled back: they go once the row's removal is committed
  await afterCommit(async () => {
    await deleteTopicMedia(ctx.files, topic);
    for (const track of topic.caption_tracks) await ctx.files.delete(track.key);
  });
  return { message: COURSE_MSG.topicDeleted };
}

/** /retry-topic-video */
export async function retryTopicVideo(ctx: CourseCtx, auth: AuthContext, slug: string) {
  const { topic } = await topicForManager(ctx.deps, auth, { slug });
  if (topic.video_status !== 'failed' || !topic.video_key) {
    throw new ValidationError({ slug: [COURSE_MSG.notFailed] });
  }
  await ctx.deps.db.transaction(async (tx) => {
    await tx
      .update(courseTopics)
      .set({ video_status: 'processing', video_error: null, updated_at: new Date() })
      .where(eq(courseTopics.id, topic.id));
    await enqueueVideo({ db: tx as unknown as Deps['db'] }, topic.id, topic.video_key!);
  });
  return { message: COURSE_MSG.processingRetried };
}

type TopicJoin = { topic: TopicRow; module: typeof courseModules.$inferSelect; course: typeof courses.$inferSelect };
export const toTopicRow = (r: TopicJoin) => ({
  course: r.course.name,
  course_slug: r.course.slug,
  module: r.module.name,
  module_id: r.module.id,
  topic: r.topic.name,
  topic_id: r.topic.id,
  tslug: r.topic.slug,
  description: r.topic.description,
  video_status: r.topic.video_status as 'processing' | 'ready' | 'failed',
  video_error: r.topic.video_error,
  duration: r.topic.duration_seconds,
});

/** /get-topic-details */
export async function getTopicDetails(deps: Deps, auth: AuthContext, slug: string) {
  const r = await topicForManager(deps, auth, { slug });
  return {
    success: {
      ...toTopicRow(r),
      caption_tracks: r.topic.caption_tracks.map(({ language, label, bytes, created_at }) => ({
        language,
        label,
        bytes,
        created_at,
      })),
      transcript: r.topic.transcript,
    },
  };
}

/** /get-course-module-topic-list: one page of a course's topics, in module then topic order. */
export async function topicList(
  deps: Deps,
  auth: AuthContext,
  q: ListQuery<(typeof TOPIC_SORT_KEYS)[number]> & { slug: string },
) {
  const course = await courseForManager(deps, auth, q.slug);
  const window = pageWindow(q);
  const filter = and(
    eq(courseModules.course_id, course.id),
    searchWhere(q.search, [courseTopics.name, courseModules.name]),
  );
  const rows = await deps.db
    .select({ topic: courseTopics, module: courseModules, course: courses, total: totalOver() })
    .from(courseTopics)
    .innerJoin(courseModules, eq(courseModules.id, courseTopics.module_id))
    .innerJoin(courses, eq(courses.id, courseModules.course_id))
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        { module: courseModules.name, topic: courseTopics.name },
        [asc(courseModules.position), asc(courseModules.id), asc(courseTopics.position)],
        courseTopics.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  if (!course) throw notFound();
  return toPage(rows, window, toTopicRow, async () => {
    const [r] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(courseTopics)
      .innerJoin(courseModules, eq(courseModules.id, courseTopics.module_id))
      .where(filter);
    return Number(r?.n ?? 0);
  });
}
