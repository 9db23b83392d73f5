import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { COURSE_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { courseTopics } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import { rememberUpload } from '../../platform/excel/multipart';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import type { FileStore } from '../../platform/ports/files';
import { looksLikeVideo, type MediaTools, mediaToolsAvailable, probe, run } from './media-tools';

export const VIDEO_JOB = 'course-video';

export const mediaTools = (deps: Pick<Deps, 'config'>): MediaTools => ({
  ffmpeg: deps.config.FFMPEG_PATH,
  ffprobe: deps.config.FFPROBE_PATH,
});

/** A topic upload read from the form: text fields and the video (in a temporary file), if any. */
export interface TopicUpload {
  fields: Record<string, string>;
  video: { file: string; bytes: number } | null;
  /** removes the temporary file */
  cleanup(): Promise<void>;
}

const videoError = (message: string) => new ValidationError({ course_url: [message] });

/**
 * Reads the multipart topic form, streaming the `course_url` part to a temporary file (never into
 * memory), refusing more than COURSE_VIDEO_MAX_BYTES.
 */
export async function readTopicUpload(deps: Deps, request: FastifyRequest): Promise<TopicUpload> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tl-topic-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const upload: TopicUpload = { fields: {}, video: null, cleanup };
  if (!request.isMultipart()) return upload;
  const max = deps.config.COURSE_VIDEO_MAX_BYTES;
  try {
    for await (const part of request.parts({ limits: { fileSize: max } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'course_url' || upload.video) {
          part.file.resume();
          continue;
        }
        const file = path.join(dir, 'upload');
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated)
          throw videoError(`The course url must not be greater than ${Math.floor(max / 1024 / 1024)} megabytes.`);
        const bytes = (await stat(file)).size;
        upload.video = bytes > 0 ? { file, bytes } : null;
        if (bytes === 0) upload.fields.__empty_file = '1';
      } else if (typeof part.value === 'string' || typeof part.value === 'number') {
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    await cleanup();
    if (e instanceof ValidationError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw videoError(`The course url must not be greater than ${Math.floor(max / 1024 / 1024)} megabytes.`);
    }
    throw videoError(COURSE_MSG.videoUnreadable);
  }
  rememberUpload(request, { filename: upload.video ? 'video' : '', fields: upload.fields });
  return upload;
}

/** Checks the uploaded bytes are a video by content: ffprobe when installed, else the leading bytes. */
export async function checkVideo(deps: Deps, file: string): Promise<void> {
  const tools = mediaTools(deps);
  if (mediaToolsAvailable(tools)) {
    try {
      await probe(tools, file);
    } catch {
      throw videoError(COURSE_MSG.videoNotVideo);
    }
    return;
  }
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    if (!looksLikeVideo(head.subarray(0, bytesRead))) throw videoError(COURSE_MSG.videoNotVideo);
  } finally {
    await handle.close();
  }
}

/** Stores the checked upload as the topic's original; answers its key. */
export async function storeOriginal(files: FileStore, topicId: number, file: string): Promise<string> {
  const key = `courses/topics/${topicId}/original-${randomBytes(8).toString('hex')}`;
  await files.put(key, createReadStream(file));
  return key;
}

/** Removes a topic's original and its package. */
export async function deleteTopicMedia(
  files: FileStore,
  t: { video_key: string | null; hls_prefix: string | null; media_files: string[] | null },
): Promise<void> {
  if (t.video_key) await files.delete(t.video_key);
  if (t.hls_prefix) for (const f of t.media_files ?? []) await files.delete(`${t.hls_prefix}/${f}`);
}

export const enqueueVideo = (deps: Pick<Deps, 'db'>, topicId: number, key: string) =>
  enqueue(deps, VIDEO_JOB, { topic_id: topicId, key });

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Renditions: the source height capped at 720, and about half of it (at least 144). */
export function renditionHeights(sourceHeight: number): number[] {
  const hi = even(Math.min(720, sourceHeight));
  const lo = even(Math.max(144, Math.min(hi / 2, 360)));
  return lo < hi ? [hi, lo] : [hi, even(hi / 2)];
}

/**
 * Probes the original, makes a poster frame and packages HLS with two renditions, then stores the
 * package and marks the topic ready. A broken file or missing ffmpeg marks it failed with the reason
 * (retried on request, not automatically: the same bytes fail the same way).
 */
export async function processTopicVideo(deps: Deps, files: FileStore, topicId: number, key: string): Promise<void> {
  const [topic] = await deps.db.select().from(courseTopics).where(eq(courseTopics.id, topicId)).limit(1);
  if (!topic || topic.video_key !== key) return; // deleted or replaced meanwhile
  const fail = (reason: string) =>
    deps.db
      .update(courseTopics)
      .set({ video_status: 'failed', video_error: reason.slice(0, 500), updated_at: new Date() })
      .where(eq(courseTopics.id, topicId));
  const tools = mediaTools(deps);
  if (!mediaToolsAvailable(tools)) return void (await fail(COURSE_MSG.ffmpegMissing));

  const dir = await mkdtemp(path.join(tmpdir(), 'tl-hls-'));
  try {
    const input = path.join(dir, 'input');
    await pipeline(await files.read(key), createWriteStream(input));
    let info: Awaited<ReturnType<typeof probe>>;
    try {
      info = await probe(tools, input);
    } catch (e) {
      return void (await fail(`The video could not be read: ${(e as Error).message}`));
    }
    const out = path.join(dir, 'out');
    await mkdir(out, { recursive: true });
    const heights = renditionHeights(info.height);
    try {
      const at = Math.min(1, info.duration / 2).toFixed(2);
      await run(
        tools.ffmpeg,
        [
          '-v',
          'error',
          '-y',
          '-ss',
          at,
          '-i',
          input,
          '-frames:v',
          '1',
          '-vf',
          `scale=-2:${heights[0]}`,
          path.join(out, 'poster.jpg'),
        ],
        { timeoutMs: 120_000 },
      );
      const variants: string[] = [];
      for (const h of heights) {
        const w = even((info.width * h) / info.height);
        const kbps = Math.round(h * 2.5);
        await run(
          tools.ffmpeg,
          [
            '-v',
            'error',
            '-y',
            '-i',
            input,
            '-map',
            '0:v:0',
            ...(info.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k', '-ac', '2'] : ['-an']),
            '-vf',
            `scale=${w}:${h}`,
            '-c:v',
            'libx264',
            '-preset',
            'veryfast',
            '-profile:v',
            'main',
            '-b:v',
            `${kbps}k`,
            '-maxrate',
            `${Math.round(kbps * 1.2)}k`,
            '-bufsize',
            `${kbps * 2}k`,
            '-g',
            '48',
            '-keyint_min',
            '48',
            '-sc_threshold',
            '0',
            '-f',
            'hls',
            '-hls_time',
            '4',
            '-hls_playlist_type',
            'vod',
            '-hls_segment_filename',
            path.join(out, `${h}p_%04d.ts`),
            path.join(out, `${h}p.m3u8`),
          ],
          { timeoutMs: 6 * 3600_000 },
        );
        variants.push(
          `#EXT-X-STREAM-INF:BANDWIDTH=${(kbps + (info.hasAudio ? 96 : 0)) * 1000},RESOLUTION=${w}x${h}\n${h}p.m3u8`,
        );
      }
      await writeFile(path.join(out, 'master.m3u8'), `#EXTM3U\n#EXT-X-VERSION:3\n${variants.join('\n')}\n`);
    } catch (e) {
      return void (await fail(`The video could not be processed: ${(e as Error).message}`));
    }
    const prefix = `courses/topics/${topicId}/hls-${randomBytes(6).toString('hex')}`;
    const names = (await readdir(out)).sort();
    for (const name of names) await files.put(`${prefix}/${name}`, createReadStream(path.join(out, name)));
    const [current] = await deps.db.select().from(courseTopics).where(eq(courseTopics.id, topicId)).limit(1);
    if (!current || current.video_key !== key) {
      // replaced or deleted while processing: this package is nobody's
      for (const name of names) await files.delete(`${prefix}/${name}`);
      return;
    }
    await deps.db
      .update(courseTopics)
      .set({
        video_status: 'ready',
        video_error: null,
        duration_seconds: Math.max(1, Math.round(info.duration)),
        poster_key: `${prefix}/poster.jpg`,
        hls_prefix: prefix,
        renditions: heights,
        media_files: names,
        updated_at: new Date(),
      })
      .where(eq(courseTopics.id, topicId));
    // the previous package (an earlier upload or attempt) goes
    if (current.hls_prefix && current.hls_prefix !== prefix) {
      for (const f of current.media_files ?? []) await files.delete(`${current.hls_prefix}/${f}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

registerJobHandler(VIDEO_JOB, async (deps, payload) => {
  await processTopicVideo(deps, deps.files, Number(payload.topic_id), String(payload.key));
});
