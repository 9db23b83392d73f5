import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
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
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createFileStore, type FileStore } from '../../adapters/files';
import { courseUploads } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { AppError, forbidden, notFound, unauthenticated, ValidationError } from '../../platform/errors';
import { type AuthContext, bearerToken, resolveSession } from '../../platform/http/auth-context';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { FileStoreTusStore, UPLOAD_TTL_MS, uploadKey } from './tus-store';
import { checkVideo } from './video';

export const UPLOAD_EXPIRY_JOB = 'course-upload-expiry';
const ID = /^[0-9a-f]{32}$/;

/** The caller of a tus request, set by our route before @tus/server sees the request. */
const callers = new WeakMap<IncomingMessage, AuthContext>();

/** A refusal in the contract's error format, which @tus/server sends as the response. */
const refusal = (status: number, message: string, field = 'course_url') => ({
  status_code: status,
  body: JSON.stringify({ [field]: [message] }),
});

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

export function createTusServer(deps: Deps, files: FileStore): Server {
  const store = new FileStoreTusStore(deps, files);
  return new Server({
    path: `/api/${COURSE_UPLOAD_PATH}`,
    datastore: store,
    maxSize: deps.config.COURSE_VIDEO_MAX_BYTES,
    relativeLocation: true,
    namingFunction: () => randomBytes(16).toString('hex'),
    onUploadCreate: async (req, upload) => {
      const node = (req as unknown as { runtime?: { node?: { req: IncomingMessage } } }).runtime?.node?.req;
      const auth = node ? callers.get(node) : undefined;
      if (!auth) throw { status_code: 401, body: JSON.stringify({ message: MSG.unauthenticated }) };
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
    // too large answers like the multipart form does: a 422 on course_url with the limit in megabytes
    onResponseError: (_req, err) => {
      const status = 'status_code' in err ? err.status_code : 500;
      if (status !== 413) return undefined;
      const mb = Math.floor(deps.config.COURSE_VIDEO_MAX_BYTES / 1024 / 1024);
      return refusal(422, `The course url must not be greater than ${mb} megabytes.`);
    },
    onUploadFinish: async (_req, upload) => {
      try {
        await checkStoredVideo(deps, files, uploadKey(upload.id));
      } catch (e) {
        // nothing of a refused upload stays: neither its bytes nor its row
        await store.remove(upload.id).catch(() => undefined);
        if (e instanceof ValidationError) throw refusal(422, COURSE_MSG.videoNotVideo);
        throw refusal(422, COURSE_MSG.videoUnreadable);
      }
      await deps.db.update(courseUploads).set({ finished_at: new Date() }).where(eq(courseUploads.id, upload.id));
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
  const tus = createTusServer(deps, files);
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const auth = token ? await resolveSession(deps, token) : null;
    if (!auth) throw unauthenticated();
    if (!mayCall(COURSE_UPLOAD_ROLES, auth.user.roles)) throw forbidden();
    const id = (request.params as { id?: string }).id;
    if (id !== undefined) {
      if (!ID.test(id)) throw notFound();
      const [row] = await deps.db
        .select({ id: courseUploads.id })
        .from(courseUploads)
        .where(and(eq(courseUploads.id, id), eq(courseUploads.owner_user_id, auth.user.id)))
        .limit(1);
      if (!row) throw notFound();
    }
    callers.set(request.raw, auth);
    reply.hijack();
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
  await expireUpload(deps, createFileStore(deps.config), String(payload.id));
});
