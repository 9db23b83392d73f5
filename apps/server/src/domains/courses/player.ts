import { COURSE_MSG, type courseProgressRequest, TOPIC_COMPLETE_RATIO } from '@trainlab/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { courseEnrolments, courseModules, courses, courseTopicProgress, courseTopics, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { forbidden, notFound, sendRefusal, unauthenticated } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { parseRange } from '../recordings/service';
import type { PlaybackTokens } from '../recordings/tokens';
import { PLAYBACK_TOKEN_TTL_SECONDS } from '../recordings/tokens';
import { courseForPlayer, type EnrolmentRow, insideWindow } from './access';
import type { CourseCtx } from './topics';

export interface PlayerCtx extends CourseCtx {
  tokens: PlaybackTokens;
}

export const mediaUrl = (token: string, file: string) => `/api/course-media/${token}/${file}`;

type ProgressRow = typeof courseTopicProgress.$inferSelect;

/** Share of a course watched, 0..100: seconds credited over the total duration of its ready topics. */
export function coursePercentage(
  topics: { id: number; duration_seconds: number | null }[],
  progress: Map<number, Pick<ProgressRow, 'seconds_watched' | 'is_complete'>>,
): number {
  let total = 0;
  let watched = 0;
  for (const t of topics) {
    if (!t.duration_seconds) continue;
    total += t.duration_seconds;
    const p = progress.get(t.id);
    watched += p?.is_complete ? t.duration_seconds : Math.min(p?.seconds_watched ?? 0, t.duration_seconds);
  }
  return total ? Math.min(100, Math.round((watched / total) * 100)) : 0;
}

async function courseTopicsOf(deps: Deps, courseIds: number[]) {
  if (!courseIds.length) return [];
  return deps.db
    .select({
      id: courseTopics.id,
      course_id: courseModules.course_id,
      duration_seconds: courseTopics.duration_seconds,
    })
    .from(courseTopics)
    .innerJoin(courseModules, eq(courseModules.id, courseTopics.module_id))
    .where(inArray(courseModules.course_id, courseIds));
}

async function progressOf(deps: Deps, userIds: number[], topicIds: number[]) {
  if (!userIds.length || !topicIds.length) return [];
  return deps.db
    .select()
    .from(courseTopicProgress)
    .where(and(inArray(courseTopicProgress.user_id, userIds), inArray(courseTopicProgress.topic_id, topicIds)));
}

/** Percentages per (course, user), computed for many at once (no query per row). */
export async function percentages(deps: Deps, pairs: { course_id: number; user_id: number }[]) {
  const courseIds = [...new Set(pairs.map((p) => p.course_id))];
  const userIds = [...new Set(pairs.map((p) => p.user_id))];
  const topics = await courseTopicsOf(deps, courseIds);
  const rows = await progressOf(
    deps,
    userIds,
    topics.map((t) => t.id),
  );
  const out = new Map<string, number>();
  for (const p of pairs) {
    const mine = new Map(rows.filter((r) => r.user_id === p.user_id).map((r) => [r.topic_id, r]));
    out.set(
      `${p.course_id}:${p.user_id}`,
      coursePercentage(
        topics.filter((t) => t.course_id === p.course_id),
        mine,
      ),
    );
  }
  return out;
}

function assertPlayable(enrolment: EnrolmentRow | null) {
  if (enrolment && !insideWindow(enrolment)) throw forbidden(COURSE_MSG.outsideWindow);
}

/** /play-course-data */
export async function playCourseData(ctx: PlayerCtx, auth: AuthContext, slug: string) {
  const { deps } = ctx;
  const { course, enrolment } = await courseForPlayer(deps, auth, slug);
  assertPlayable(enrolment);
  const modules = await deps.db
    .select()
    .from(courseModules)
    .where(eq(courseModules.course_id, course.id))
    .orderBy(asc(courseModules.position), asc(courseModules.id));
  const topics = modules.length
    ? await deps.db
        .select()
        .from(courseTopics)
        .where(
          inArray(
            courseTopics.module_id,
            modules.map((m) => m.id),
          ),
        )
        .orderBy(asc(courseTopics.position), asc(courseTopics.id))
    : [];
  const progress = new Map(
    (
      await progressOf(
        deps,
        [auth.user.id],
        topics.map((t) => t.id),
      )
    ).map((p) => [p.topic_id, p]),
  );
  // on S3 the poster comes straight from the bucket (presigned); on disk through our signed route
  const posters = new Map<number, string>();
  if (ctx.files.signedUrl) {
    for (const t of topics) {
      if (t.video_status === 'ready' && t.hls_prefix && t.poster_key) {
        posters.set(t.id, await ctx.files.signedUrl(t.poster_key, PLAYBACK_TOKEN_TTL_SECONDS, 'image/jpeg'));
      }
    }
  }
  const data = modules.map((m) => ({
    id: m.id,
    name: m.name,
    topics: topics
      .filter((t) => t.module_id === m.id)
      .map((t) => {
        const ready = t.video_status === 'ready' && t.hls_prefix;
        const token = ready ? ctx.tokens.sign(t.id, auth.user.id) : '';
        const p = progress.get(t.id);
        return {
          id: t.id,
          slug: t.slug,
          name: t.name,
          description: t.description,
          url: ready ? mediaUrl(token, 'master.m3u8') : null,
          poster: ready && t.poster_key ? (posters.get(t.id) ?? mediaUrl(token, 'poster.jpg')) : null,
          captions: ready
            ? t.caption_tracks.map((c) => ({
                language: c.language,
                label: c.label,
                url: mediaUrl(token, captionsFile(c.language)),
              }))
            : [],
          transcript: t.transcript,
          video_status: t.video_status as 'processing' | 'ready' | 'failed',
          video_error: t.video_error,
          duration: t.duration_seconds,
          seconds_watched: p?.seconds_watched ?? 0,
          last_position: p?.last_position ?? 0,
          is_complete: p?.is_complete ?? 0,
        };
      }),
  }));
  return {
    course: { id: course.id, name: course.name, slug: course.slug },
    data,
    percentage: coursePercentage(topics, progress),
  };
}

/** Seconds of slack per report beyond wall-clock time (network jitter, timer drift). */
const SLACK_SECONDS = 2;
/** The first report of a topic can credit at most this much (no earlier report to measure from). */
const FIRST_REPORT_MAX_SECONDS = 15;

/**
 * /course-progress: credits watched seconds to a topic. The credit is the smallest of what the player
 * says, the wall-clock time since the previous report (plus a little slack), and what is left of the
 * video; so neither a big number nor rapid reports can inflate progress.
 */
export async function reportProgress(
  ctx: PlayerCtx,
  auth: AuthContext,
  body: z.output<typeof courseProgressRequest>,
  now = new Date(),
) {
  const { deps } = ctx;
  const [row] = await deps.db
    .select({ topic: courseTopics, course: courses })
    .from(courseTopics)
    .innerJoin(courseModules, eq(courseModules.id, courseTopics.module_id))
    .innerJoin(courses, eq(courses.id, courseModules.course_id))
    .where(eq(courseTopics.slug, body.slug))
    .limit(1);
  if (!row) throw notFound();
  const { enrolment } = await courseForPlayer(deps, auth, row.course.slug);
  assertPlayable(enrolment);
  const duration = row.topic.duration_seconds;
  if (row.topic.video_status !== 'ready' || !duration) throw forbidden(COURSE_MSG.videoNotReady);

  const result = await deps.db.transaction(async (tx) => {
    await tx
      .insert(courseTopicProgress)
      .values({ topic_id: row.topic.id, user_id: auth.user.id })
      .onConflictDoNothing();
    const [p] = await tx
      .select()
      .from(courseTopicProgress)
      .where(and(eq(courseTopicProgress.topic_id, row.topic.id), eq(courseTopicProgress.user_id, auth.user.id)))
      .for('update');
    const elapsed = p!.last_report_at
      ? Math.max(0, (now.getTime() - p!.last_report_at.getTime()) / 1000) + SLACK_SECONDS
      : FIRST_REPORT_MAX_SECONDS;
    const credit = Math.max(0, Math.min(body.watched, elapsed, duration - p!.seconds_watched));
    const seconds = Math.min(duration, p!.seconds_watched + Math.floor(credit + 1e-9));
    const complete = p!.is_complete || seconds >= Math.ceil(duration * TOPIC_COMPLETE_RATIO) ? 1 : 0;
    const position = Math.min(Math.floor(body.position), duration);
    const [updated] = await tx
      .update(courseTopicProgress)
      .set({
        seconds_watched: seconds,
        last_position: position,
        is_complete: complete,
        last_report_at: now,
        updated_at: now,
      })
      .where(eq(courseTopicProgress.id, p!.id))
      .returning();
    return updated!;
  });

  // the course: complete when every topic is
  const topics = await courseTopicsOf(deps, [row.course.id]);
  const progress = new Map(
    (
      await progressOf(
        deps,
        [auth.user.id],
        topics.map((t) => t.id),
      )
    ).map((p) => [p.topic_id, p]),
  );
  const allDone = topics.length > 0 && topics.every((t) => progress.get(t.id)?.is_complete === 1);
  if (enrolment) {
    await deps.db
      .update(courseEnrolments)
      .set({ is_complete: allDone ? 1 : 0, updated_at: now })
      .where(eq(courseEnrolments.id, enrolment.id));
  }
  return {
    seconds_watched: result.seconds_watched,
    last_position: result.last_position,
    is_complete: result.is_complete,
    course_complete: allDone ? 1 : 0,
    percentage: coursePercentage(topics, progress),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * /get-user-courses: Assigned (incomplete), Completed (every course at 100 %, assigned or bought:
 * issue 41 found a bought course at "100% completed" under Enrolled while Completed was empty),
 * Enrolled (bought, incomplete).
 */
export async function userCourses(deps: Deps, auth: AuthContext) {
  const rows = await deps.db
    .select({ enrolment: courseEnrolments, course: courses })
    .from(courseEnrolments)
    .innerJoin(courses, eq(courses.id, courseEnrolments.course_id))
    .where(eq(courseEnrolments.user_id, auth.user.id))
    .orderBy(sql`${courseEnrolments.start_date} desc nulls last`, asc(courseEnrolments.id));
  const pct = await percentages(
    deps,
    rows.map((r) => ({ course_id: r.course.id, user_id: auth.user.id })),
  );
  const now = new Date();
  const item = (r: (typeof rows)[number]) => ({
    id: r.course.id,
    name: r.course.name,
    slug: r.course.slug,
    description: r.course.description,
    start_date: iso(r.enrolment.start_date),
    end_date: iso(r.enrolment.end_date),
    is_complete: r.enrolment.is_complete,
    percentage: r.enrolment.is_complete ? 100 : (pct.get(`${r.course.id}:${auth.user.id}`) ?? 0),
    available: insideWindow(r.enrolment, now),
  });
  const items = rows.map((r) => ({ source: r.enrolment.source, course: item(r) }));
  const done = (c: ReturnType<typeof item>) => c.percentage >= 100;
  return {
    assigned: items.filter((i) => i.source === 'assigned' && !done(i.course)).map((i) => i.course),
    completed: items.filter((i) => done(i.course)).map((i) => i.course),
    enrolled: items.filter((i) => i.source === 'purchase' && !done(i.course)).map((i) => i.course),
  };
}

const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  jpg: 'image/jpeg',
  vtt: 'text/vtt; charset=utf-8',
};
/** The name a topic's caption track of a language is served under, beside its HLS files. */
const captionsFile = (language: string) => `captions-${language}.vtt`;

/**
 * GET /api/course-media/{token}/{file}: one file of a topic's HLS package or its poster. The token
 * (signed, short-lived, issued by /play-course-data to someone who may play the topic) sits in the
 * path so the playlists' relative segment URLs carry it. Byte ranges answer 206.
 */
export async function sendCourseMedia(ctx: PlayerCtx, request: FastifyRequest, reply: FastifyReply) {
  const { token = '', file = '' } = request.params as { token?: string; file?: string };
  const payload = Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8');
  const topicId = Number(payload.split('.')[0]);
  if (!Number.isInteger(topicId) || topicId < 1) throw unauthenticated();
  const verified = ctx.tokens.verify(token, topicId);
  if (!verified) throw unauthenticated();
  if (!FILE.test(file)) throw notFound();
  const [row] = await ctx.deps.db
    .select({ topic: courseTopics, user: users })
    .from(courseTopics)
    .innerJoin(users, eq(users.id, verified.userId))
    .where(eq(courseTopics.id, topicId))
    .limit(1);
  const captions = row?.topic.caption_tracks.find((c) => captionsFile(c.language) === file)?.key ?? null;
  if (
    !row ||
    row.user.status !== 1 ||
    !row.topic.hls_prefix ||
    !(captions || (row.topic.media_files ?? []).includes(file))
  ) {
    throw notFound();
  }
  const key = captions ?? `${row.topic.hls_prefix}/${file}`;
  const type = TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream';
  if (ctx.files.signedUrl && !captions) {
    const signedUrl = ctx.files.signedUrl.bind(ctx.files);
    if (/^\d+p\.m3u8$/.test(file)) {
      // a rendition playlist names its segments by presigned URLs, so the video bytes come straight from S3
      const files = new Set(row.topic.media_files ?? []);
      const lines = await Promise.all(
        (await streamText(await ctx.files.read(key)))
          .split('\n')
          .map((line) =>
            !line.startsWith('#') && line.endsWith('.ts') && files.has(line)
              ? signedUrl(`${row.topic.hls_prefix}/${line}`, PLAYBACK_TOKEN_TTL_SECONDS, 'video/mp2t')
              : line,
          ),
      );
      return reply
        .status(200)
        .header('content-type', type)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(lines.join('\n'));
    }
    if (!file.endsWith('.m3u8')) {
      // segments and the poster: a redirect to their presigned URL (a player that asks us by name)
      return reply
        .status(302)
        .header('cache-control', 'private, no-store')
        .redirect(await signedUrl(key, 3600, type));
    }
  }
  const stat = await ctx.files.stat(key);
  if (!stat) throw notFound();
  const size = stat.size;
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(request.headers.range, size);
  if (range === 'bad') {
    return sendRefusal(reply.header('content-range', `bytes */${size}`), 416, 'Range Not Satisfiable');
  }
  reply
    .header('content-type', type)
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff');
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(await ctx.files.read(key, range));
  }
  reply.status(200).header('content-length', size);
  return reply.send(await ctx.files.read(key));
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
