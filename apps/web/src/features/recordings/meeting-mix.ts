import type { RecordMode } from './recorder-format';

/** One participant of the meeting as the recording sees it. */
export interface MixSource {
  id: string;
  name: string;
  stream: MediaStream | null;
}

/** The meeting mixed into one stream for MediaRecorder; follows the participants as they come and go. */
export interface MeetingMix {
  stream: MediaStream;
  update(sources: MixSource[]): void;
  stop(): void;
}

export const MIX_WIDTH = 1280;
export const MIX_HEIGHT = 720;
const FPS = 15;

/** Columns × rows for n tiles, as close to the frame's shape as possible. */
export function gridFor(n: number): { cols: number; rows: number } {
  if (n <= 1) return { cols: 1, rows: 1 };
  const cols = Math.ceil(Math.sqrt(n));
  return { cols, rows: Math.ceil(n / cols) };
}

/** Where an image of w×h goes inside a box so that it fits whole (letterboxed), centred. */
export function fitInto(w: number, h: number, box: { x: number; y: number; w: number; h: number }) {
  if (w <= 0 || h <= 0) return { ...box };
  const scale = Math.min(box.w / w, box.h / h);
  const dw = w * scale;
  const dh = h * scale;
  return { x: box.x + (box.w - dw) / 2, y: box.y + (box.h - dh) / 2, w: dw, h: dh };
}

/**
 * Mixes everyone's audio (Web Audio) and, for 'video', draws everyone's picture in a grid on a canvas,
 * so the recording holds the whole meeting rather than the moderator's own camera only.
 */
export function mixMeeting(mode: RecordMode, sources: MixSource[]): MeetingMix {
  const audio = new AudioContext();
  const out = audio.createMediaStreamDestination();
  const inputs = new Map<string, { node: MediaStreamAudioSourceNode; streamId: string }>();
  const videos = new Map<string, { el: HTMLVideoElement; name: string; streamId: string }>();
  let current = sources;

  const canvas = mode === 'video' ? document.createElement('canvas') : null;
  const ctx = canvas?.getContext('2d') ?? null;
  if (canvas) {
    canvas.width = MIX_WIDTH;
    canvas.height = MIX_HEIGHT;
  }

  const update = (next: MixSource[]) => {
    current = next;
    const live = new Set<string>();
    for (const s of next) {
      if (!s.stream) continue;
      live.add(s.id);
      if (s.stream.getAudioTracks().length > 0 && inputs.get(s.id)?.streamId !== s.stream.id) {
        inputs.get(s.id)?.node.disconnect();
        const node = audio.createMediaStreamSource(s.stream);
        node.connect(out);
        inputs.set(s.id, { node, streamId: s.stream.id });
      }
      if (canvas) {
        const known = videos.get(s.id);
        if (known?.streamId === s.stream.id) known.name = s.name;
        else {
          const el = known?.el ?? document.createElement('video');
          el.muted = true;
          el.playsInline = true;
          el.srcObject = s.stream;
          void el.play().catch(() => undefined);
          videos.set(s.id, { el, name: s.name, streamId: s.stream.id });
        }
      }
    }
    for (const [id, input] of inputs)
      if (!live.has(id)) {
        input.node.disconnect();
        inputs.delete(id);
      }
    for (const [id, v] of videos)
      if (!live.has(id)) {
        v.el.srcObject = null;
        videos.delete(id);
      }
  };

  const draw = () => {
    if (!ctx) return;
    ctx.fillStyle = '#1a1b1e';
    ctx.fillRect(0, 0, MIX_WIDTH, MIX_HEIGHT);
    const tiles = current.filter((s) => s.stream);
    const { cols, rows } = gridFor(tiles.length);
    const w = MIX_WIDTH / cols;
    const h = MIX_HEIGHT / rows;
    tiles.forEach((s, i) => {
      const box = { x: (i % cols) * w + 2, y: Math.floor(i / cols) * h + 2, w: w - 4, h: h - 4 };
      const v = videos.get(s.id);
      const track = s.stream?.getVideoTracks()[0];
      if (v && track?.enabled && v.el.videoWidth > 0) {
        const r = fitInto(v.el.videoWidth, v.el.videoHeight, box);
        ctx.drawImage(v.el, r.x, r.y, r.w, r.h);
      } else {
        ctx.fillStyle = '#2c2e33';
        ctx.fillRect(box.x, box.y, box.w, box.h);
      }
      ctx.font = '20px sans-serif';
      ctx.fillStyle = 'rgba(0,0,0,0.55)';
      const label = s.name;
      ctx.fillRect(box.x + 8, box.y + box.h - 36, ctx.measureText(label).width + 16, 28);
      ctx.fillStyle = '#fff';
      ctx.fillText(label, box.x + 16, box.y + box.h - 15);
    });
  };

  update(sources);
  // A timer rather than requestAnimationFrame: the recording goes on while the tab is in the background.
  const timer = canvas ? setInterval(draw, 1000 / FPS) : null;
  draw();
  const tracks = [...(canvas ? canvas.captureStream(FPS).getVideoTracks() : []), ...out.stream.getAudioTracks()];

  return {
    stream: new MediaStream(tracks),
    update,
    stop() {
      if (timer) clearInterval(timer);
      for (const t of tracks) t.stop();
      for (const input of inputs.values()) input.node.disconnect();
      for (const v of videos.values()) v.el.srcObject = null;
      inputs.clear();
      videos.clear();
      void audio.close().catch(() => undefined);
    },
  };
}
