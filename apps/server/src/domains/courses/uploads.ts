import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  COURSE_MSG,
  COURSE_UPLOAD_PATH,
  COURSE_UPLOAD_ROLES,
  MSG,
  mayCall,
  nulCharacterErrors,
  PROTOCOL_ENDPOINTS,
} from '@trainlab/contract';
import { Server } from '@tus/server';
import { TUS_RESUMABLE } from '@tus/utils';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { courseUploads } from '../../db/schema';
import { isDatabaseUnavailable } from '../../platform/db/guarded-pglite';
import type { Deps } from '../../platform/deps';
import {
  AppError,
  codeRawRefusals,
  forbidden,
  notFound,
  RETRY_AFTER_SECONDS,
  refusalBody,
  serviceUnavailable,
  unauthenticated,
  ValidationError,
} from '../../platform/errors';
import { type AuthContext, bearerToken, resolveSession } from '../../platform/http/auth-context';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import type { FileStore } from '../../platform/ports/files';
import { FileStoreTusStore, UPLOAD_TTL_MS, uploadKey } from './tus-store';
import { checkVideo } from './video';

export const UPLOAD_EXPIRY_JOB = 'course-upload-expiry';
const ID = /^[0-9a-f]{32}$/;

/**
 * A tus request as our route checked it, before @tus/server sees it: the caller, the upload id the
 * route checked (from the path, never the query string: @tus/server, left to itself, takes the last
 * `/` segment of the whole URL), and the request's log.
 */
interface CheckedCall {
  auth: AuthContext;
  id?: string;
  log: FastifyBaseLogger;
}
const checked = new WeakMap<IncomingMessage, CheckedCall>();
const nodeOf = (req: Request) =>
  (req as unknown as { runtime?: { node?: { req: IncomingMessage; res: ServerResponse } } }).runtime?.node;

/** A refusal in the contract's error format, which @tus/server sends as the response. */
const refusal = (status: number, message: string, field = 'course_url') => ({
  status_code: status,
  body: JSON.stringify({ [field]: [message] }),
});
type Refusal = ReturnType<typeof refusal>;
const isRefusal = (e: unknown): e is Refusal =>
  typeof (e as Refusal)?.status_code === 'number' && typeof (e as Refusal)?.body === 'string';

/** Copies a finished upload to a temporary file and checks it is a video by content (ffprobe). */
async function checkStoredVideo(deps: Deps, files: FileStore, key: string): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tl-tus-'));
  try {
    const file = path.join(dir, 'upload');
    await pipeline(await files.read(key), createWriteStream(file));
    await checkVideo(deps, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Finishes an upload whose bytes are all stored: checks it is a video (a refused one goes, bytes and
 * row) and marks it finished. Safe to repeat: the last PATCH runs it, and so does a retried last
 * PATCH or a HEAD that finds every byte stored but no finish mark (the mark's write failed).
 */
async function finishUpload(deps: Deps, files: FileStore, store: FileStoreTusStore, id: string): Promise<void> {
  try {
    await checkStoredVideo(deps, files, uploadKey(id));
  } catch (e) {
    // nothing of a refused upload stays: neither its bytes nor its row
    await store.remove(id).catch(() => undefined);
    if (e instanceof ValidationError) throw refusal(422, COURSE_MSG.videoNotVideo);
    throw refusal(422, COURSE_MSG.videoUnreadable);
  }
  await deps.db
    .update(courseUploads)
    .set({ finished_at: new Date() })
    .where(and(eq(courseUploads.id, id), isNull(courseUploads.finished_at)));
}

export function createTusServer(deps: Deps, files: FileStore, store = new FileStoreTusStore(deps, files)): Server {
  return new Server({
    path: `/api/${COURSE_UPLOAD_PATH}`,
    datastore: store,
    maxSize: deps.config.COURSE_VIDEO_MAX_BYTES,
    relativeLocation: true,
    namingFunction: () => randomBytes(16).toString('hex'),
    // the id our route checked is the id acted on (one source for both)
    getFileIdFromRequest: (req) => {
      const node = nodeOf(req);
      return node ? checked.get(node.req)?.id : undefined;
    },
    onUploadCreate: async (req, upload) => {
      const node = nodeOf(req);
      const auth = node ? checked.get(node.req)?.auth : undefined;
      if (!auth) throw { status_code: 401, body: JSON.stringify(refusalBody(401, MSG.unauthenticated)) };
      if (!upload.size) throw refusal(422, COURSE_MSG.videoUnreadable);
      // the metadata is stored as JSON, which PostgreSQL refuses with a NUL character in it
      const nul = nulCharacterErrors(upload.metadata ?? {});
      if (nul) throw { status_code: 422, body: JSON.stringify(nul) };
      const expires = new Date(Date.now() + UPLOAD_TTL_MS);
      await deps.db.insert(courseUploads).values({
        id: upload.id,
        owner_user_id: auth.user.id,
        key: uploadKey(upload.id),
        size: upload.size,
        metadata: upload.metadata ?? {},
        expires_at: expires,
      });
      await enqueue(deps, UPLOAD_EXPIRY_JOB, { id: upload.id }, { runAt: expires });
      return {};
    },
    // @tus/server answers an error it does not know with its message, which for a failed query is
    // drizzle's "Failed query: <SQL> params: <values>": such errors answer as every other call does
    onResponseError: (req, err) => {
      const node = nodeOf(req);
      if (isRefusal(err)) {
        // too large answers like the multipart form does: a 422 on course_url with the limit in megabytes
        if (err.status_code !== 413) return undefined;
        const mb = Math.floor(deps.config.COURSE_VIDEO_MAX_BYTES / 1024 / 1024);
        return refusal(422, `The course url must not be greater than ${mb} megabytes.`);
      }
      if ('status_code' in err) return undefined;
      if (isDatabaseUnavailable(err)) {
        node?.res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
        return { status_code: 503, body: JSON.stringify(refusalBody(503, serviceUnavailable().message)) };
      }
      (node ? checked.get(node.req)?.log : undefined)?.error({ err }, 'unhandled error');
      return { status_code: 500, body: JSON.stringify(refusalBody(500, MSG.internalError)) };
    },
    onUploadFinish: async (_req, upload) => {
      await finishUpload(deps, files, store, upload.id);
      return {};
    },
  });
}

/**
 * Mounts the tus endpoint: POST /api/course-uploads creates an upload, HEAD/PATCH/DELETE
 * /api/course-uploads/{id} resume, continue and cancel it. Our checks come first, as for every
 * call: who is calling (401), may they author courses (403), is the upload theirs (404).
 */
export function courseUploadRoutes(app: FastifyInstance, deps: Deps, files: FileStore): void {
  const store = new FileStoreTusStore(deps, files);
  const tus = createTusServer(deps, files, store);
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const auth = token ? await resolveSession(deps, token) : null;
    if (!auth) throw unauthenticated();
    if (!mayCall(COURSE_UPLOAD_ROLES, auth.user.roles)) throw forbidden();
    const id = (request.params as { id?: string }).id;
    if (id !== undefined) {
      if (!ID.test(id)) throw notFound();
      const [row] = await deps.db
        .select({ size: courseUploads.size, key: courseUploads.key, finished_at: courseUploads.finished_at })
        .from(courseUploads)
        .where(and(eq(courseUploads.id, id), eq(courseUploads.owner_user_id, auth.user.id)))
        .limit(1);
      if (!row) throw notFound();
      // every byte stored but no finish mark: the last PATCH's finish failed after its bytes were
      // written (its answer was a 503). Its retry, or a HEAD, finishes the upload now.
      if (request.method !== 'DELETE' && !row.finished_at && row.size > 0) {
        const stored = await files.stat(row.key);
        if (stored?.size === row.size) {
          try {
            await finishUpload(deps, files, store, id);
          } catch (e) {
            if (!isRefusal(e)) throw e;
            return reply
              .status(e.status_code)
              .header('tus-resumable', TUS_RESUMABLE)
              .type('application/json')
              .send(e.body);
          }
          if (request.method === 'PATCH') {
            // complete: whatever this PATCH carries is not needed
            return reply
              .status(204)
              .headers({ 'tus-resumable': TUS_RESUMABLE, 'upload-offset': String(row.size) })
              .send();
          }
        }
      }
    }
    checked.set(request.raw, { auth, id, log: request.log });
    reply.hijack();
    // tus writes its answers itself: its refusals get their X-Error-Code on the way out
    codeRawRefusals(reply.raw);
    await tus.handle(request.raw, reply.raw);
  };
  app.register(async (scope) => {
    // tus bodies are read by @tus/server as a stream, never by Fastify
    scope.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
    const config = { protocolEndpoint: PROTOCOL_ENDPOINTS.find((e) => e.path === COURSE_UPLOAD_PATH) };
    scope.post(`/api/${COURSE_UPLOAD_PATH}`, { config }, handle);
    scope.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `/api/${COURSE_UPLOAD_PATH}/:id`,
      config,
      handler: handle,
    });
  });
}

/**
 * Takes over a finished upload of the caller for a topic: the row goes (so it no longer expires), the
 * file stays under its key and becomes the topic's original. Inside the caller's transaction.
 */
export async function takeFinishedUpload(db: Deps['db'], auth: AuthContext, id: string) {
  if (!ID.test(id)) throw notFound();
  const [row] = await db
    .select()
    .from(courseUploads)
    .where(and(eq(courseUploads.id, id), eq(courseUploads.owner_user_id, auth.user.id)))
    .limit(1);
  if (!row) throw notFound();
  if (!row.finished_at) throw new ValidationError({ tus_upload_id: [COURSE_MSG.uploadNotFinished] });
  const [taken] = await db
    .delete(courseUploads)
    .where(and(eq(courseUploads.id, id), isNotNull(courseUploads.finished_at)))
    .returning();
  if (!taken) throw new AppError(404, MSG.notFound);
  return { key: taken.key, bytes: taken.size };
}

/** The expiry of one upload: removed with its bytes unless a topic took it over meanwhile. */
export async function expireUpload(deps: Pick<Deps, 'db'>, files: FileStore, id: string): Promise<boolean> {
  const [row] = await deps.db.delete(courseUploads).where(eq(courseUploads.id, id)).returning();
  if (!row) return false;
  await files.delete(row.key);
  return true;
}

registerJobHandler(UPLOAD_EXPIRY_JOB, async (deps, payload) => {
  await expireUpload(deps, deps.files, String(payload.id));
});
