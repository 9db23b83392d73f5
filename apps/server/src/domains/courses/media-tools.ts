import { spawn, spawnSync } from 'node:child_process';

/**
 * ffprobe and ffmpeg (Debian package `ffmpeg`). The server works without them: uploads are then
 * checked by their leading bytes only and the processing job fails with a clear reason.
 */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

const available = new Map<string, boolean>();

/** Whether both programs run (asked once per path and process). */
export function mediaToolsAvailable(tools: MediaTools): boolean {
  const key = `${tools.ffmpeg}|${tools.ffprobe}`;
  let ok = available.get(key);
  if (ok === undefined) {
    const runs = (bin: string) => {
      try {
        return spawnSync(bin, ['-version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
      } catch {
        return false;
      }
    };
    ok = runs(tools.ffprobe) && runs(tools.ffmpeg);
    available.set(key, ok);
  }
  return ok;
}

/** Runs a program, collecting stderr; rejects with its last lines on a non-zero exit. */
export function run(bin: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-4000);
    });
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (code === 0) resolve(out);
      else {
        const last = err.trim().split('\n').slice(-3).join(' ').trim();
        reject(new Error(last || `${bin} exited with ${code}`));
      }
    });
  });
}

export interface Probe {
  duration: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

/** The video's duration and size, or an error when it is not a readable video. */
export async function probe(tools: MediaTools, file: string): Promise<Probe> {
  const out = await run(
    tools.ffprobe,
    ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,width,height', '-of', 'json', file],
    { timeoutMs: 60_000 },
  );
  const json = JSON.parse(out) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; width?: number; height?: number }[];
  };
  const video = json.streams?.find((s) => s.codec_type === 'video' && s.width && s.height);
  const duration = Number(json.format?.duration);
  if (!video || !Number.isFinite(duration) || duration <= 0) throw new Error('The file has no playable video stream.');
  return {
    duration,
    width: video.width!,
    height: video.height!,
    hasAudio: Boolean(json.streams?.some((s) => s.codec_type === 'audio')),
  };
}

/** Recognises common video containers by their first bytes (used when ffprobe is missing). */
export function looksLikeVideo(head: Buffer): boolean {
  if (head.length < 12) return false;
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return true; // MP4, MOV, M4V, 3GP
  if (head.readUInt32BE(0) === 0x1a45dfa3) return true; // Matroska, WebM
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'AVI ')
    return true;
  if (head.subarray(0, 4).toString('latin1') === 'OggS') return true;
  if (head[0] === 0x47 && head.length > 188 && head[188] === 0x47) return true; // MPEG-TS
  return false;
}
