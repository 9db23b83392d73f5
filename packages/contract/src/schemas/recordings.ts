import { z } from 'zod';
import { idField, requiredText } from '../validation.js';

/**
 * Meeting recordings (spec 01 §9 local recording, spec 02 §2 /recording/{base64 id}): the moderator
 * records in the browser and uploads the file in ordered chunks; the file then becomes the topic's
 * recording_url, served by GET /api/recording-file/{id} with byte ranges.
 */

/** Container types MediaRecorder produces (FLAC only where the browser supports it). */
export const RECORDING_MIMES = ['audio/webm', 'video/webm', 'audio/ogg', 'audio/flac'] as const;
/** Each uploaded chunk is at most this size. */
export const RECORDING_CHUNK_MAX_BYTES = 5 * 1024 * 1024;

/** `audio/webm` or `audio/webm;codecs=opus` (a codecs parameter is allowed, nothing else). */
export const recordingMimeField = () =>
  z
    .string({ error: 'The mime field is required.' })
    .trim()
    .min(1, { error: 'The mime field is required.', abort: true })
    .max(100, { error: 'The mime must not be greater than 100 characters.', abort: true })
    .refine(
      (v) => {
        const m = /^([a-z]+\/[a-z0-9.+-]+)\s*(?:;\s*codecs\s*=\s*"?[a-zA-Z0-9.,+ -]+"?)?$/i.exec(v);
        return !!m && (RECORDING_MIMES as readonly string[]).includes(m[1]!.toLowerCase());
      },
      { error: 'The mime must be one of audio/webm, video/webm, audio/ogg, audio/flac.' },
    );

/** The base type of a mime with parameters: `audio/webm;codecs=opus` → `audio/webm`. */
export const baseMime = (mime: string) => mime.split(';')[0]!.trim().toLowerCase();

export const recordingStartRequest = z.object({
  slug: requiredText(200),
  /** the syllabus topic this recording belongs to; default: the training's latest topic at finish */
  topic_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), idField().optional()),
  mime: recordingMimeField(),
});
export const recordingStartResponse = z.object({
  message: z.string(),
  id: z.number(),
  /** the largest chunk the server accepts, in bytes */
  chunk_size: z.number(),
});

export const recordingChunkRequest = z.object({
  id: z.unknown().optional().describe('The recording id (multipart text field).'),
  index: z.unknown().optional().describe('0-based chunk number; must be the next expected one (multipart text field).'),
  file: z.unknown().optional().describe('The chunk bytes, at most 5 MB (multipart part named "file").'),
});
export const recordingChunkResponse = z.object({
  id: z.number(),
  /** the next index the server expects */
  next_index: z.number(),
  /** bytes stored so far */
  bytes: z.number(),
});

export const recordingIdRequest = z.object({ id: idField() });
export const recordingFinishResponse = z.object({
  message: z.string(),
  id: z.number(),
  /** /api/recording-file/{id} */
  url: z.string(),
  bytes: z.number(),
  /** the topic whose recording_url was set (null when the training has no topic) */
  topic_id: z.number().nullable(),
});

/** /get-recording: the topic id as a number, its decimal string or its base64 form (/recording/{base64 id}). */
export const getRecordingRequest = z.object({
  id: z.union([z.number().int().positive(), z.string().trim().min(1).max(100)], {
    error: 'The id field is required.',
  }),
});
export const getRecordingResponse = z.object({
  success: z.object({
    /** a playable URL: /api/recording-file/{id}?t={signed token} (or an external recording_url) */
    url: z.string(),
    /** null for an external recording_url */
    mime: z.string().nullable(),
    bytes: z.number().nullable(),
    topic: z.object({ id: z.number(), session_topic: z.string() }),
    training: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  }),
});
export type GetRecordingResponse = z.infer<typeof getRecordingResponse>;
export type RecordingStartResponse = z.infer<typeof recordingStartResponse>;
export type RecordingChunkResponse = z.infer<typeof recordingChunkResponse>;
export type RecordingFinishResponse = z.infer<typeof recordingFinishResponse>;
