import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { recordings, syllabusTopics } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { registerJobHandler } from '../../platform/jobs';
import type { FileStore } from '../../platform/ports/files';
import { fileUrl, latestTopic } from '../recordings/service';

/**
 * Server-side recording of an sfu room (docs/decisions/0029-server-recording.md). Janus writes one
 * .mjr file per published stream (audio and video of every camera and screen) into the recording's
 * folder; once the recording is over this job turns them into ONE playable WebM:
 *   1. `janus-pp-rec` converts each .mjr into its own container (Opus audio → .opus, VP8 → .webm);
 *   2. ffmpeg mixes every audio track into one and takes the largest video (the screen share or
 *      the moderator's camera: the stream that carried the most) without re-encoding it;
 *   3. the file goes through the file store and becomes a ready recording of the training, which
 *      plays at /recording/{topic} like the browser recorder's.
 */
export const SERVER_RECORDING_JOB = 'conference.server-recording';

export interface ServerRecordingPayload {
  dir: string;
  trainingId: number;
  userId: number;
  startedAt: string;
}

export interface Tools {
  ppRec: string;
  ffmpeg: string;
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-2000);
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}: ${err.trim().split('\n').pop()}`)),
    );
  });
}

/** Step 1: every .mjr of the folder in its own playable container. */
export async function convertMjr(
  dir: string,
  out: string,
  tools: Tools,
): Promise<{ audio: string[]; video: string[] }> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.mjr')).sort();
  const audio: string[] = [];
  const video: string[] = [];
  for (const name of names) {
    const isAudio = /-audio-/.test(name);
    const isVideo = /-video-/.test(name);
    if (!isAudio && !isVideo) continue;
    const target = join(out, name.replace(/\.mjr$/, isAudio ? '.opus' : '.webm'));
    try {
      await run(tools.ppRec, [join(dir, name), target]);
    } catch {
      // a stream that never carried media leaves a header-only file: nothing to convert
      continue;
    }
    if ((await stat(target).catch(() => null))?.size) (isAudio ? audio : video).push(target);
  }
  return { audio, video };
}

/** Step 2: one WebM from the converted parts; null when there is nothing to play. */
export async function mergeParts(
  parts: { audio: string[]; video: string[] },
  out: string,
  tools: Tools,
): Promise<string | null> {
  let video: string | null = null;
  let biggest = -1;
  for (const v of parts.video) {
    const size = (await stat(v)).size;
    if (size > biggest) [video, biggest] = [v, size];
  }
  if (!video && !parts.audio.length) return null;
  const target = join(out, 'recording.webm');
  const args = ['-hide_banner', '-loglevel', 'error', '-y'];
  const inputs = [...(video ? [video] : []), ...parts.audio];
  for (const i of inputs) args.push('-i', i);
  const firstAudio = video ? 1 : 0;
  if (parts.audio.length > 1) {
    const labels = parts.audio.map((_, i) => `[${firstAudio + i}:a]`).join('');
    args.push('-filter_complex', `${labels}amix=inputs=${parts.audio.length}:duration=longest[a]`, '-map', '[a]');
  } else if (parts.audio.length === 1) {
    args.push('-map', `${firstAudio}:a`);
  }
  if (video) args.push('-map', '0:v', '-c:v', 'copy');
  if (parts.audio.length) args.push('-c:a', 'libopus', '-b:a', '64k');
  args.push(target);
  await run(tools.ffmpeg, args);
  return target;
}

/**
 * The stored file of one Janus recording folder: the same on every run of its job, so a run after
 * a crash finds the recording made and adds no second one.
 */
const serverRecordingKey = (p: Pick<ServerRecordingPayload, 'trainingId' | 'dir'>) =>
  `recordings/${p.trainingId}/server-${createHash('sha256').update(p.dir).digest('hex').slice(0, 24)}.webm`;

/** Step 3: stored and listed as a ready recording of the training (its latest topic's). */
export async function storeRecording(
  deps: Deps,
  files: FileStore,
  file: string,
  p: Pick<ServerRecordingPayload, 'trainingId' | 'userId' | 'dir'>,
): Promise<number> {
  const key = serverRecordingKey(p);
  const bytes = await files.put(key, createReadStream(file));
  const topicId = await latestTopic(deps, p.trainingId);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(recordings)
      .values({
        training_id: p.trainingId,
        topic_id: topicId,
        mime: 'video/webm',
        bytes,
        chunks: 1,
        status: 'ready',
        storage_key: key,
        created_by: p.userId,
        finished_at: new Date(),
      })
      .returning({ id: recordings.id });
    if (topicId !== null) {
      await tx
        .update(syllabusTopics)
        .set({ recording_url: fileUrl(row!.id) })
        .where(eq(syllabusTopics.id, topicId));
    }
    return row!.id;
  });
}

export async function processServerRecording(
  deps: Deps,
  payload: ServerRecordingPayload,
  tools: Tools = { ppRec: deps.config.JANUS_PP_REC_PATH, ffmpeg: deps.config.FFMPEG_PATH },
): Promise<number | null> {
  const [made] = await deps.db
    .select({ id: recordings.id })
    .from(recordings)
    .where(eq(recordings.storage_key, serverRecordingKey(payload)));
  if (made) {
    // an earlier run stored it and stopped before the end: only the clean-up is left
    await rm(payload.dir, { recursive: true, force: true });
    return made.id;
  }
  const work = await mkdtemp(join(tmpdir(), 'trainlab-rec-'));
  try {
    const parts = await convertMjr(payload.dir, work, tools);
    const file = await mergeParts(parts, work, tools);
    if (!file) return null;
    const id = await storeRecording(deps, deps.files, file, payload);
    // Janus's raw files are not needed once the playable file is stored
    await rm(payload.dir, { recursive: true, force: true });
    return id;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

registerJobHandler(SERVER_RECORDING_JOB, async (deps, payload) => {
  await processServerRecording(deps, payload as unknown as ServerRecordingPayload);
});
