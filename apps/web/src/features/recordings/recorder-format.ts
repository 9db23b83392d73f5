/** What the meeting recording captures: the audio tracks only, or the camera/screen video with audio. */
export type RecordMode = 'audio' | 'video';

interface RecorderSupport {
  isTypeSupported(mime: string): boolean;
}

/**
 * The container to record in. The spec asks for FLAC audio ("local recording flac with video muted
 * at start"): used where MediaRecorder supports 'audio/flac'; browsers without it (Chromium, Firefox
 * today) record Opus in WebM instead. Full video is WebM (VP8/VP9 + Opus).
 */
export function pickMime(mode: RecordMode, support: RecorderSupport): string {
  const candidates =
    mode === 'audio'
      ? ['audio/flac', 'audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/ogg']
      : ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];
  return candidates.find((m) => support.isTypeSupported(m)) ?? (mode === 'audio' ? 'audio/webm' : 'video/webm');
}

/** 'FLAC', 'WebM (Opus)'… for the label beside the button. */
export function formatLabel(mime: string): string {
  if (mime.startsWith('audio/flac')) return 'FLAC audio';
  if (mime.startsWith('audio/ogg')) return 'Ogg (Opus) audio';
  if (mime.startsWith('audio/webm')) return 'WebM (Opus) audio';
  return 'WebM video';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatElapsed(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
