/**
 * The class bench's room: participants of /ws/conference in a Janus (sfu) room, as pure-TypeScript
 * WebRTC peers (werift) instead of browsers.
 * - The trainer publishes a camera-like stream: a clip ffmpeg encoded before the class (a moving
 *   test picture and a tone, VP8 640×360 at 25 frames/s and Opus) is sent by ffmpeg as RTP to two
 *   loopback UDP ports, in real time and looped; werift puts those packets on its sendonly tracks,
 *   so Janus receives what a browser's camera would send (one layer, no simulcast).
 * - A viewer joins, subscribes to the trainer's camera as the page does, answers Janus's offer and
 *   counts what arrives: video frames (RTP packets with the marker bit), packets, and the gaps in
 *   the sequence numbers (loss). It decodes nothing and draws nothing: that is the difference with
 *   a browser, measured beside it with real Chromium viewers (bench/class.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import path from 'node:path';
import { MediaStreamTrack, RTCPeerConnection, type RtpPacket, useOPUS, useVP8 } from 'werift';
import { sleep } from './class-api';
import { WebSocket } from './class-labs';

/** every signalling message sent or received on /ws/conference by this process */
export const signalling = { messages: 0 };

type Msg = { type: string; [k: string]: unknown };

/** One /ws/conference connection: auth, join, and "wait for the next message of this kind". */
export class Conference {
  private ws: InstanceType<typeof WebSocket> | null = null;
  private waiters: { type: string; test: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private handlers = new Map<string, ((m: Msg) => void)[]>();
  readonly seen: Msg[] = [];
  you = '';

  constructor(
    private readonly wsBase: string,
    private readonly token: string,
  ) {}

  send(m: Msg) {
    signalling.messages++;
    this.ws!.send(JSON.stringify(m));
  }
  on(type: string, handler: (m: Msg) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }
  next(type: string, test: (m: Msg) => boolean = () => true, ms = 30_000): Promise<Msg> {
    const had = this.seen.find((m) => m.type === type && test(m));
    if (had) return Promise.resolve(had);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} in ${ms} ms`)), ms);
      this.waiters.push({
        type,
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
  async open(slug: string) {
    this.ws = new WebSocket(`${this.wsBase}/ws/conference`);
    this.ws.on('message', (raw) => {
      signalling.messages++;
      const m = JSON.parse(raw.toString()) as Msg;
      this.seen.push(m);
      if (this.seen.length > 200) this.seen.splice(0, 100);
      for (const h of this.handlers.get(m.type) ?? []) h(m);
      for (const w of [...this.waiters]) {
        if (w.type === m.type && w.test(m)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
    await new Promise<void>((resolve, reject) => {
      this.ws!.once('open', resolve);
      this.ws!.once('error', reject);
    });
    this.send({ type: 'auth', token: this.token });
    await this.next('authed');
    this.send({ type: 'join', slug });
    const joined = await Promise.race([
      this.next('joined'),
      this.next('error').then((e) => {
        throw new Error(`join refused: ${e.message}`);
      }),
    ]);
    this.you = (joined.you as { id: string }).id;
    if (joined.media !== 'sfu') throw new Error(`the room is not an sfu room (media: ${String(joined.media)})`);
  }
  close() {
    try {
      this.send({ type: 'leave' });
    } catch {
      /* closed */
    }
    this.ws?.close();
    this.ws = null;
  }
}

/** no STUN (the host has no network) and no TCP: what Janus on this host offers is enough */
const peer = () =>
  new RTCPeerConnection({ iceServers: [], iceUseTcp: false, codecs: { video: [useVP8()], audio: [useOPUS()] } });

async function gathered(pc: RTCPeerConnection) {
  if (pc.iceGatheringState === 'complete') return;
  await new Promise<void>((resolve) => {
    const sub = pc.iceGatheringStateChange.subscribe((s) => {
      if (s === 'complete') {
        sub.unSubscribe();
        resolve();
      }
    });
  });
}

const freeUdp = () =>
  new Promise<dgram.Socket>((resolve) => {
    const s = dgram.createSocket('udp4');
    s.bind(0, '127.0.0.1', () => resolve(s));
  });

export interface Publisher {
  conf: Conference;
  /** video frames put on the camera track so far (what the viewers could receive at most) */
  framesSent: () => number;
  close: () => void;
}

/**
 * A camera-like clip, encoded once before the class: 640×360 at 25 frames/s VP8 (about 600 kbit/s,
 * a key frame every 2 s) and Opus at 32 kbit/s, 10 s of a moving test picture and a tone.
 */
export async function cameraClip(dir: string): Promise<string> {
  const file = path.join(dir, 'camera.webm');
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...[
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
      ],
      ...['-t', '10', '-c:v', 'libvpx', '-deadline', 'good', '-cpu-used', '4', '-b:v', '600k', '-g', '50'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'libopus', '-b:a', '32k', file],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  ffmpeg.stderr!.on('data', (d) => {
    err += d;
  });
  const code = await new Promise<number | null>((r) => ffmpeg.once('exit', r));
  if (code !== 0) throw new Error(`ffmpeg could not encode the camera clip (${code}): ${err.slice(-1000)}`);
  return file;
}

/** The trainer in the room, publishing the camera clip (VP8 + Opus) as the camera. */
export async function publish(wsBase: string, token: string, slug: string, clip: string): Promise<Publisher> {
  const conf = new Conference(wsBase, token);
  await conf.open(slug);
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  const pc = peer();
  pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  conf.on('sfu-trickle', (m) => {
    if (m.target === 'camera' && m.candidate) void pc.addIceCandidate(m.candidate as never).catch(() => undefined);
  });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  conf.send({ type: 'sfu-publish', source: 'camera', jsep: { type: 'offer', sdp: pc.localDescription!.sdp } });
  const answer = await conf.next('sfu-answer', (m) => m.source === 'camera');
  await pc.setRemoteDescription(answer.jsep as never);

  const vSock = await freeUdp();
  const aSock = await freeUdp();
  let framesSent = 0;
  vSock.on('message', (b) => {
    // the marker bit (byte 1, high bit) ends a frame
    if ((b[1]! & 0x80) !== 0) framesSent++;
    video.writeRtp(b);
  });
  aSock.on('message', (b) => audio.writeRtp(b));
  const rtp = (s: dgram.Socket) => `rtp://127.0.0.1:${s.address().port}?pkt_size=1200`;
  // the clip is sent as it was encoded (-c copy), paced in real time and looped: no encoder competes
  // with the class for the processor, so the frame rate sent is the clip's whatever the load
  const ffmpeg: ChildProcess = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip],
      ...['-map', '0:v', '-c', 'copy', '-payload_type', '96', '-f', 'rtp', rtp(vSock)],
      ...['-map', '0:a', '-c', 'copy', '-payload_type', '111', '-f', 'rtp', rtp(aSock)],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let ffmpegErr = '';
  ffmpeg.stderr!.on('data', (d) => {
    ffmpegErr = (ffmpegErr + d).slice(-2000);
  });
  ffmpeg.once('exit', (code) => {
    if (code && code !== 255) console.error(`ffmpeg exited ${code}: ${ffmpegErr}`);
  });
  let closed = false;
  return {
    conf,
    framesSent: () => framesSent,
    close: () => {
      if (closed) return;
      closed = true;
      ffmpeg.kill('SIGKILL');
      vSock.close();
      aSock.close();
      conf.close();
      void pc.close();
    },
  };
}

/** What one synthetic viewer received. */
export class Reception {
  frames = 0;
  videoPackets = 0;
  audioPackets = 0;
  firstFrameAt: number | null = null;
  private first: number | null = null;
  private highest = -1;
  private cycles = 0;
  private received = 0;
  /**
   * The extended sequence numbers of the last packets: a packet that comes twice (a retransmission
   * after a NACK, when the first copy was only late) counts once, so that under load a viewer never
   * receives more packets or frames than were sent (which made the loss negative).
   */
  private seen = new Set<number>();
  /** expected vs received video packets (sequence numbers, wrap-around included) */
  loss() {
    if (this.first === null) return { expected: 0, lost: 0 };
    const expected = this.cycles * 65536 + this.highest - this.first + 1;
    return { expected, lost: Math.max(0, expected - this.received) };
  }
  video(p: RtpPacket) {
    const seq = p.header.sequenceNumber;
    if (this.first === null) {
      this.first = seq;
      this.highest = seq;
    } else if (((seq - this.highest) & 0xffff) < 0x8000 && seq !== this.highest) {
      if (seq < this.highest) this.cycles++;
      this.highest = seq;
    }
    // a late packet belongs to the cycle before the highest's when it is numbered above it
    const cycle = seq > this.highest && this.cycles > 0 ? this.cycles - 1 : this.cycles;
    const extended = cycle * 65536 + seq;
    if (this.seen.has(extended)) return;
    this.seen.add(extended);
    if (this.seen.size > 4096) for (const old of this.seen) if (this.seen.delete(old) && this.seen.size <= 2048) break;
    this.received++;
    this.videoPackets++;
    if (p.header.marker) {
      this.frames++;
      if (this.firstFrameAt === null) this.firstFrameAt = performance.now();
    }
  }
  snapshot() {
    return { frames: this.frames, ...this.loss(), at: performance.now() };
  }
}

export interface Viewer {
  joinMs: number;
  reception: Reception;
  close: () => void;
}

/** A learner joining the room and watching the trainer's camera; resolves at the first whole video frame. */
export async function view(
  wsBase: string,
  token: string,
  slug: string,
  trainerPeer: () => string,
  timeoutMs = 60_000,
): Promise<Viewer> {
  const t0 = performance.now();
  const conf = new Conference(wsBase, token);
  const pc = peer();
  const reception = new Reception();
  try {
    await conf.open(slug);
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((p) => (track.kind === 'video' ? reception.video(p) : reception.audioPackets++));
    });
    conf.on('sfu-trickle', (m) => {
      if (m.target === 'subscriber' && m.candidate)
        void pc.addIceCandidate(m.candidate as never).catch(() => undefined);
    });
    conf.on('sfu-offer', (m) => {
      void (async () => {
        await pc.setRemoteDescription(m.jsep as never);
        await pc.setLocalDescription(await pc.createAnswer());
        await gathered(pc);
        conf.send({
          type: 'sfu-answer',
          source: 'subscriber',
          jsep: { type: 'answer', sdp: pc.localDescription!.sdp },
        });
      })();
    });
    const feed = trainerPeer();
    await conf.next('sfu-feeds', (m) =>
      (m.feeds as { peer: string; source: string }[]).some((f) => f.peer === feed && f.source === 'camera'),
    );
    conf.send({ type: 'sfu-subscribe', streams: [{ feed, source: 'camera' }] });
    const until = t0 + timeoutMs;
    while (reception.firstFrameAt === null) {
      if (performance.now() > until) throw new Error(`no video frame in ${timeoutMs} ms`);
      await sleep(20);
    }
  } catch (e) {
    conf.close();
    void pc.close();
    throw e;
  }
  return {
    joinMs: reception.firstFrameAt - t0,
    reception,
    close: () => {
      conf.close();
      pc.close().catch(() => undefined);
    },
  };
}
