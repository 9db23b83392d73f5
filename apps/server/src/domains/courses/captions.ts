import { randomBytes } from 'node:crypto';
import { CAPTIONS_MAX_BYTES } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { courseTopics } from '../../db/schema';
import { ValidationError } from '../../platform/errors';
import { readUpload } from '../../platform/excel/multipart';
import type { AuthContext } from '../../platform/http/auth-context';
import { topicForManager } from './access';
import type { CourseCtx } from './topics';

/** A WebVTT file starts with 'WEBVTT' (after an optional byte-order mark), then a space, tab or line end. */
const isWebVtt = (bytes: Buffer) => /^\uFEFF?WEBVTT([ \t\r\n]|$)/.test(bytes.subarray(0, 64).toString('utf8'));

/**
 * /upload-topic-captions (multipart: slug, file): the captions of a topic's video, through the file
 * store; the player adds them as a captions track. A new upload replaces (and deletes) the old file.
 */
export async function uploadCaptions(ctx: CourseCtx, auth: AuthContext, request: FastifyRequest) {
  const upload = await readUpload(request, CAPTIONS_MAX_BYTES);
  const slug = upload.fields.slug?.trim() ?? '';
  const errors: Record<string, string[]> = {};
  if (!slug) errors.slug = ['The slug field is required.'];
  if (!upload.file) errors.file = ['The file field is required.'];
  else if (!isWebVtt(upload.file)) errors.file = ['The file must be a WebVTT (.vtt) file.'];
  if (Object.keys(errors).length || !upload.file) throw new ValidationError(errors);
  const { topic } = await topicForManager(ctx.deps, auth, { slug });
  const key = `course-captions/${topic.id}-${randomBytes(6).toString('hex')}.vtt`;
  await ctx.files.put(key, upload.file);
  await ctx.deps.db.update(courseTopics).set({ captions_key: key }).where(eq(courseTopics.id, topic.id));
  if (topic.captions_key) await ctx.files.delete(topic.captions_key);
  return { message: 'Captions saved.' };
}
