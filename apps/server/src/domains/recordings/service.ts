import { randomBytes } from 'node:crypto';
import { API, baseMime, MSG, mayCall, RECORDING_CHUNK_MAX_BYTES, type recordingStartRequest } from '@trainlab/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordings, syllabusTopics, trainings, trainingUsers, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { AppError, notFound, sendRefusal, unauthenticated, ValidationError } from '../../platform/errors';
import { readUpload } from '../../platform/excel';
import { type AuthContext, bearerToken, resolveSession, type UserRow } from '../../platform/http/auth-context';
import type { FileStore } from '../../platform/ports/files';
import { isLearner } from '../../platform/tenancy';
import { staffCanSee, type TrainingRow, trainingForStaff } from '../trainings/access';
import type { PlaybackTokens } from './tokens';

export interface RecordingCtx {
  deps: Deps;
  files: FileStore;
  tokens: PlaybackTokens;
}

type RecordingRow = typeof recordings.$inferSelect;

export const fileUrl = (id: number) => `/api/recording-file/${id}`;

const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
};

/** Chunks of one recording are appended one at a time (per server process). */
const queues = new Map<number, Promise<unknown>>();
async function serialized<T>(id: number, work: () => Promise<T>): Promise<T> {
  const before = queues.get(id) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  queues.set(id, tail);
  try {
    return await run;
  } finally {
    if (queues.get(id) === tail) queues.delete(id);
  }
}

/** Whether this account may see the training: enrolled learner, manager of its tenant, assigned trainer. */
export async function mayView(deps: Deps, user: UserRow, training: TrainingRow): Promise<boolean> {
  const auth: AuthContext = { user, sessionId: 0, token: '' };
  if (isLearner(user.roles)) {
    const rows = await deps.db
      .select({ id: trainingUsers.id })
      .from(trainingUsers)
      .where(and(eq(trainingUsers.training_id, training.id), eq(trainingUsers.user_id, user.id)))
      .limit(1);
    if (rows.length) return true;
  }
  try {
    return await staffCanSee(deps, auth, training);
  } catch {
    return false;
  }
}

/** A recording of a training the calling moderator manages or is assigned to; 404 otherwise. */
async function recordingForStaff(deps: Deps, auth: AuthContext, id: number): Promise<RecordingRow> {
  const [row] = await deps.db.select().from(recordings).where(eq(recordings.id, id)).limit(1);
  if (!row) throw notFound();
  await trainingForStaff(deps, auth, { id: row.training_id });
  return row;
}

/** /recording-start */
export async function startRecording(
  ctx: RecordingCtx,
  auth: AuthContext,
  body: z.output<typeof recordingStartRequest>,
) {
  const { deps } = ctx;
  const training = await trainingForStaff(deps, auth, { slug: body.slug });
  if (body.topic_id !== undefined) {
    const [topic] = await deps.db
      .select({ id: syllabusTopics.id })
      .from(syllabusTopics)
      .where(and(eq(syllabusTopics.id, body.topic_id), eq(syllabusTopics.training_id, training.id)))
      .limit(1);
    if (!topic) throw new ValidationError({ topic_id: [MSG.recordingTopicInvalid] });
  }
  const ext = EXTENSIONS[baseMime(body.mime)] ?? 'bin';
  const [row] = await deps.db
    .insert(recordings)
    .values({
      training_id: training.id,
      topic_id: body.topic_id ?? null,
      mime: body.mime.replace(/\s+/g, ''),
      storage_key: `recordings/${training.id}/${randomBytes(12).toString('hex')}.${ext}`,
      created_by: auth.user.id,
    })
    .returning();
  return { message: MSG.recordingStarted, id: row!.id, chunk_size: RECORDING_CHUNK_MAX_BYTES };
}

const chunkFields = z.object({
  id: z.coerce.number({ error: 'The id must be an integer.' }).int().positive({ error: 'The id must be an integer.' }),
  index: z.coerce
    .number({ error: 'The index must be an integer.' })
    .int({ error: 'The index must be an integer.' })
    .min(0, { error: 'The index must be at least 0.' }),
});

/** /recording-chunk (multipart id, index, file) */
export async function appendChunk(ctx: RecordingCtx, auth: AuthContext, request: FastifyRequest) {
  const { deps, files } = ctx;
  const upload = await readUpload(request, RECORDING_CHUNK_MAX_BYTES);
  const errors: Record<string, string[]> = {};
  if (!upload.fields.id?.trim()) errors.id = ['The id field is required.'];
  if (!upload.fields.index?.trim()) errors.index = ['The index field is required.'];
  if (!upload.file) errors.file = ['The file field is required.'];
  const parsed = chunkFields.safeParse(upload.fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      errors[field] ??= [issue.message];
    }
  }
  if (Object.keys(errors).length || !parsed.success || !upload.file) throw new ValidationError(errors);
  const { id, index } = parsed.data;
  const file = upload.file;
  await recordingForStaff(deps, auth, id);

  return serialized(id, async () => {
    const [row] = await deps.db.select().from(recordings).where(eq(recordings.id, id)).limit(1);
    if (!row) throw notFound();
    if (row.status !== 'uploading') throw new ValidationError({ id: [MSG.recordingFinished] });
    // a chunk already stored (a retry after a lost answer) is acknowledged, not appended again
    if (index < row.chunks) return { id, next_index: row.chunks, bytes: row.bytes };
    if (index > row.chunks) throw new ValidationError({ index: [`The index must be ${row.chunks}.`] });
    const max = deps.config.RECORDING_MAX_BYTES;
    if (row.bytes + file.length > max) {
      throw new ValidationError({
        file: [`The recording must not be greater than ${Math.floor(max / 1024 / 1024)} megabytes.`],
      });
    }
    await files.append(row.storage_key, file);
    const [updated] = await deps.db
      .update(recordings)
      .set({ chunks: index + 1, bytes: sql`${recordings.bytes} + ${file.length}` })
      .where(and(eq(recordings.id, id), eq(recordings.chunks, index)))
      .returning();
    if (!updated) throw new AppError(409, 'The chunk was stored by another request.');
    return { id, next_index: updated.chunks, bytes: updated.bytes };
  });
}

/** The topic a recording without one belongs to: the training's most recently started, else newest topic. */
export async function latestTopic(deps: Deps, trainingId: number): Promise<number | null> {
  const [row] = await deps.db
    .select({ id: syllabusTopics.id })
    .from(syllabusTopics)
    .where(eq(syllabusTopics.training_id, trainingId))
    .orderBy(sql`${syllabusTopics.started_at} desc nulls last`, desc(syllabusTopics.id))
    .limit(1);
  return row?.id ?? null;
}

/** /recording-finish */
export async function finishRecording(ctx: RecordingCtx, auth: AuthContext, id: number) {
  const { deps } = ctx;
  const rec = await recordingForStaff(deps, auth, id);
  return serialized(id, async () => {
    const [row] = await deps.db.select().from(recordings).where(eq(recordings.id, rec.id)).limit(1);
    if (!row) throw notFound();
    if (row.status === 'uploading' && row.bytes === 0) throw new ValidationError({ id: [MSG.recordingEmpty] });
    const topicId = row.topic_id ?? (await latestTopic(deps, row.training_id));
    const url = fileUrl(row.id);
    if (row.status === 'uploading') {
      await deps.db.transaction(async (tx) => {
        await tx
          .update(recordings)
          .set({ status: 'ready', finished_at: new Date(), topic_id: topicId })
          .where(eq(recordings.id, row.id));
        if (topicId !== null) {
          await tx.update(syllabusTopics).set({ recording_url: url }).where(eq(syllabusTopics.id, topicId));
        }
      });
    }
    return { message: MSG.recordingSaved, id: row.id, url, bytes: row.bytes, topic_id: topicId };
  });
}

/** A topic id as /recording/{base64 id} sends it: number, decimal string or base64 of the decimal. */
export function decodeTopicId(id: string | number): number | null {
  if (typeof id === 'number') return id;
  if (/^\d{1,9}$/.test(id)) return Number(id);
  const decoded = Buffer.from(id, 'base64').toString('utf8').trim();
  return /^\d{1,9}$/.test(decoded) && Number(decoded) > 0 ? Number(decoded) : null;
}

/** /get-recording */
export async function getRecording(ctx: RecordingCtx, auth: AuthContext, id: string | number) {
  const { deps } = ctx;
  const unavailable = () => notFound(MSG.recordingNotAvailable);
  const topicId = decodeTopicId(id);
  if (topicId === null) throw unavailable();
  const [row] = await deps.db
    .select({ topic: syllabusTopics, training: trainings })
    .from(syllabusTopics)
    .innerJoin(trainings, eq(trainings.id, syllabusTopics.training_id))
    .where(eq(syllabusTopics.id, topicId))
    .limit(1);
  if (!row || !(await mayView(deps, auth.user, row.training))) throw unavailable();
  const [rec] = await deps.db
    .select()
    .from(recordings)
    .where(and(eq(recordings.topic_id, topicId), eq(recordings.status, 'ready')))
    .orderBy(desc(recordings.finished_at), desc(recordings.id))
    .limit(1);
  const topic = { id: row.topic.id, session_topic: row.topic.session_topic };
  const training = { id: row.training.id, name: row.training.name, slug: row.training.slug };
  if (rec) {
    const url = `${fileUrl(rec.id)}?t=${ctx.tokens.sign(rec.id, auth.user.id)}`;
    return { success: { url, mime: rec.mime, bytes: rec.bytes, topic, training } };
  }
  const external = row.topic.recording_url;
  if (external && !external.startsWith('/api/recording-file/')) {
    return { success: { url: external, mime: null, bytes: null, topic, training } };
  }
  throw unavailable();
}

/** Who is asking for the file: a bearer session, or the user of a valid ?t= playback token. */
async function fileCaller(ctx: RecordingCtx, request: FastifyRequest, recordingId: number): Promise<UserRow> {
  const bearer = bearerToken(request);
  if (bearer) {
    const auth = await resolveSession(ctx.deps, bearer);
    if (!auth) throw unauthenticated();
    return auth.user;
  }
  const t = (request.query as Record<string, unknown>).t;
  if (typeof t !== 'string' || !t) throw unauthenticated();
  const verified = ctx.tokens.verify(t, recordingId);
  if (!verified) throw unauthenticated();
  const [user] = await ctx.deps.db.select().from(users).where(eq(users.id, verified.userId)).limit(1);
  if (!user || user.status !== 1 || user.is_approved !== 1) throw unauthenticated();
  return user;
}

/** Parses a single `bytes=` range against a size: a range, 'unsatisfiable', or null (serve it all). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'bad' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null; // other units or several ranges: the whole file (RFC 9110 allows ignoring Range)
  const [, a, b] = m;
  if (a === '' && b === '') return 'bad';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'bad';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return 'bad';
  }
  if (start >= size) return 'bad';
  return { start, end };
}

/** GET /api/recording-file/:id */
export async function sendRecordingFile(ctx: RecordingCtx, request: FastifyRequest, reply: FastifyReply) {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const user = await fileCaller(ctx, request, id ?? 0);
  if (!mayCall(API.getRecording.access, user.roles)) throw new AppError(403, MSG.forbidden);
  if (id === null) throw notFound();
  const [row] = await ctx.deps.db
    .select({ rec: recordings, training: trainings })
    .from(recordings)
    .innerJoin(trainings, eq(trainings.id, recordings.training_id))
    .where(eq(recordings.id, id))
    .limit(1);
  if (!row || row.rec.status !== 'ready' || !(await mayView(ctx.deps, user, row.training))) {
    throw notFound(MSG.recordingNotAvailable);
  }
  const stat = await ctx.files.stat(row.rec.storage_key);
  if (!stat) throw notFound(MSG.recordingNotAvailable);
  const size = stat.size;
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(request.headers.range, size);
  if (range === 'bad') {
    return sendRefusal(reply.header('content-range', `bytes */${size}`), 416, 'Range Not Satisfiable');
  }
  reply
    .header('content-type', row.rec.mime)
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline');
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(await ctx.files.read(row.rec.storage_key, range));
  }
  reply.status(200).header('content-length', size);
  return reply.send(await ctx.files.read(row.rec.storage_key));
}
