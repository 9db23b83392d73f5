import { randomBytes } from 'node:crypto';
import { CAPTIONS_MAX_BYTES, CAPTIONS_MAX_TRACKS, LANGUAGE_TAG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type CaptionTrackRow, courseTopics } from '../../db/schema';
import { notFound, ValidationError } from '../../platform/errors';
import { readUpload } from '../../platform/excel/multipart';
import type { AuthContext } from '../../platform/http/auth-context';
import { topicForManager } from './access';
import type { CourseCtx } from './topics';
import { vttToText } from './vtt-text';

/** A WebVTT file starts with 'WEBVTT' (after an optional byte-order mark), then a space, tab or line end. */
const isWebVtt = (bytes: Buffer) => /^\uFEFF?WEBVTT([ \t\r\n]|$)/.test(bytes.subarray(0, 64).toString('utf8'));

const LABEL_MAX = 60;

/** Tags compare without case ('pt-br' is 'pt-BR'); the first spelling given is kept. */
const sameLanguage = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * /upload-topic-captions (multipart: slug, language, label, file): one caption track of a topic's
 * video, through the file store; the player offers every track. A track of the same language is
 * replaced (its old file deleted).
 */
export async function uploadCaptions(ctx: CourseCtx, auth: AuthContext, request: FastifyRequest) {
  const upload = await readUpload(request, CAPTIONS_MAX_BYTES);
  const slug = upload.fields.slug?.trim() ?? '';
  const language = upload.fields.language?.trim() ?? '';
  const label = upload.fields.label?.trim() ?? '';
  const errors: Record<string, string[]> = {};
  if (!slug) errors.slug = ['The slug field is required.'];
  if (!language) errors.language = ['The language field is required.'];
  else if (!LANGUAGE_TAG.test(language)) errors.language = ['The language must be a language tag such as en or pt-BR.'];
  if (!label) errors.label = ['The label field is required.'];
  else if (label.length > LABEL_MAX) errors.label = [`The label may not be greater than ${LABEL_MAX} characters.`];
  if (!upload.file) errors.file = ['The file field is required.'];
  else if (!isWebVtt(upload.file)) errors.file = ['The file must be a WebVTT (.vtt) file.'];
  if (Object.keys(errors).length || !upload.file) throw new ValidationError(errors);
  const { topic } = await topicForManager(ctx.deps, auth, { slug });
  const previous = topic.caption_tracks.find((c) => sameLanguage(c.language, language));
  if (!previous && topic.caption_tracks.length >= CAPTIONS_MAX_TRACKS) {
    throw new ValidationError({ language: [`A video may have at most ${CAPTIONS_MAX_TRACKS} caption tracks.`] });
  }
  const key = `course-captions/${topic.id}-${randomBytes(6).toString('hex')}.vtt`;
  await ctx.files.put(key, upload.file);
  const track: CaptionTrackRow = {
    language: previous?.language ?? language,
    label,
    key,
    bytes: upload.file.length,
    created_at: new Date().toISOString(),
  };
  const tracks = previous
    ? topic.caption_tracks.map((c) => (c === previous ? track : c))
    : [...topic.caption_tracks, track];
  await ctx.deps.db.update(courseTopics).set({ caption_tracks: tracks }).where(eq(courseTopics.id, topic.id));
  if (previous) await ctx.files.delete(previous.key);
  return { message: 'Captions saved.' };
}

/** /delete-topic-captions {slug, language} */
export async function deleteCaptions(ctx: CourseCtx, auth: AuthContext, body: { slug: string; language: string }) {
  const { topic } = await topicForManager(ctx.deps, auth, { slug: body.slug });
  const track = topic.caption_tracks.find((c) => sameLanguage(c.language, body.language));
  if (!track) throw notFound();
  const tracks = topic.caption_tracks.filter((c) => c !== track);
  await ctx.deps.db.update(courseTopics).set({ caption_tracks: tracks }).where(eq(courseTopics.id, topic.id));
  await ctx.files.delete(track.key);
  return { message: 'Captions deleted.' };
}

/** /save-topic-transcript {slug, transcript?, from_language?} */
export async function saveTranscript(
  ctx: CourseCtx,
  auth: AuthContext,
  body: { slug: string; transcript?: string | null; from_language?: string },
) {
  const { topic } = await topicForManager(ctx.deps, auth, { slug: body.slug });
  let text = body.transcript?.trim() ?? '';
  if (body.from_language) {
    const language = body.from_language;
    const track = topic.caption_tracks.find((c) => sameLanguage(c.language, language));
    if (!track) throw new ValidationError({ from_language: ['The video has no caption track in that language.'] });
    if (!(await ctx.files.stat(track.key))) throw notFound();
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.files.read(track.key)) chunks.push(Buffer.from(chunk));
    text = vttToText(Buffer.concat(chunks).toString('utf8'));
  }
  const transcript = text === '' ? null : text;
  await ctx.deps.db.update(courseTopics).set({ transcript }).where(eq(courseTopics.id, topic.id));
  return { message: transcript ? 'Transcript saved.' : 'Transcript removed.', transcript };
}
