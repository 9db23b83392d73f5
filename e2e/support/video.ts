import { execFileSync, spawnSync } from 'node:child_process';

/**
 * A short real lecture made with ffmpeg (Debian package ffmpeg; .ci/run installs it): a test pattern
 * with a tone, H.264 and AAC in MP4, as a person would upload. `colour` tints the picture so two
 * videos tell apart on screen. Used by the course journeys and the server's course tests alike.
 */
export function makeLecture(file: string, seconds: number, colour?: string): string {
  if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('ffmpeg is not installed: apt-get install -y ffmpeg (the course tests need real videos).');
  }
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...(colour ? ['-vf', `drawbox=color=${colour}@0.4:t=fill`] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return file;
}
