import type { ClientMessage, ServerMessage, SfuFeed, SfuSource, SfuStream, sfuCandidate } from '@trainlab/contract';
import type { z } from 'zod';
import { streamsKey, type WantedStream } from './grid-paging';

type SfuCandidate = z.infer<typeof sfuCandidate>;
type Jsep = { type: 'offer' | 'answer'; sdp: string };

/**
 * The media of a room on the selective forwarding unit (Janus VideoRoom, docs/conference-protocol.md):
 * the page never speaks the Janus API. Our server relays the SDP and ICE over /ws/conference and
 * decides who publishes and who receives what; media flows between this browser and Janus.
 * - one publishing RTCPeerConnection per source ('camera', 'screen'); the camera sends three
 *   simulcast layers (rid h, m, l) so a viewer on a weak line, or a small tile, gets a smaller one;
 * - one receiving RTCPeerConnection, renegotiated on every `sfu-offer` (the server's answer to the
 *   set of streams the page asked for with `sfu-subscribe`).
 * The room socket, its rules and the roster stay with rtc-client.ts, which hands the `sfu-*`
 * messages here.
 */

export type RtcIceServer = Record<string, unknown>;

/** What the page sends for the SFU (the contract's `sfu-*` client messages). */
export type SfuClientMessage = Extract<ClientMessage, { type: `sfu-${string}` }>;
/** What the server sends for the SFU (the contract's `sfu-*` server messages). */
export type SfuServerMessage = Extract<ServerMessage, { type: `sfu-${string}` }>;

/** An `sfu-*` message of the server (handed to the SFU session rather than the room). */
export function isSfuMessage(msg: ServerMessage): msg is SfuServerMessage {
  return msg.type.startsWith('sfu-');
}

/** RTCIceCandidateInit as the contract carries it (null: the end of the candidates). */
const candidateOf = (c: RTCIceCandidate | null): SfuCandidate => {
  if (!c) return null;
  const j = c.toJSON();
  return {
    candidate: j.candidate ?? '',
    sdpMid: j.sdpMid,
    sdpMLineIndex: j.sdpMLineIndex,
    usernameFragment: j.usernameFragment,
  };
};

/**
 * The camera's simulcast layers, highest first as Janus's own client sends them: the full picture,
 * half and a quarter of its size. Chrome leaves out layers a small camera picture cannot fill.
 */
export const CAMERA_ENCODINGS: RTCRtpEncodingParameters[] = [
  { rid: 'h', maxBitrate: 900_000 },
  { rid: 'm', maxBitrate: 300_000, scaleResolutionDownBy: 2 },
  { rid: 'l', maxBitrate: 100_000, scaleResolutionDownBy: 4 },
];

export interface SfuEvents {
  onFeeds?: (feeds: SfuFeed[]) => void;
  onTalking?: (peer: string, talking: boolean) => void;
  /** the received streams changed (a tile gets or loses its picture) */
  onStreams?: () => void;
}

interface Publisher {
  pc: RTCPeerConnection;
  /** the kinds this publication carries; other kinds need a new publication */
  kinds: string;
  /** our candidates wait until the offer is on its way */
  offered: boolean;
  queued: SfuCandidate[];
  /** the server's candidates wait for its answer */
  remote: RTCIceCandidateInit[];
}

export interface SfuStats {
  bytesReceived: number;
  bytesSent: number;
  framesDecoded: number;
  /** summed energy of the audio received (grows while someone is heard) */
  audioEnergy: number;
  /** participants whose streams this page receives */
  peers: number;
  /** of those, the ones from whom media bytes have arrived */
  receiving: number;
}

export class SfuSession {
  private publishers = new Map<SfuSource, Publisher>();
  private sub: RTCPeerConnection | null = null;
  private subRemote: RTCIceCandidateInit[] = [];
  private offerStreams: SfuStream[] = [];
  private remote = new Map<string, MediaStream>();
  private local: MediaStream | null = null;
  private wanted: WantedStream[] = [];
  private wantedKey: string | null = null;
  private talking = new Set<string>();
  /** offers, answers and candidates are handled one after another, in the order they came */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly send: (message: SfuClientMessage) => void,
    private readonly iceServers: RtcIceServer[],
    private readonly events: SfuEvents,
  ) {}

  handle(msg: SfuServerMessage): void {
    switch (msg.type) {
      case 'sfu-feeds':
        this.events.onFeeds?.(msg.feeds);
        // The server leaves out wanted streams that are not sending yet and announces the feeds again
        // once their media is up: the same set is then asked for again (after the grid has seen the
        // new list, so a changed set goes first and this repeat costs the server one look).
        this.wantedKey = null;
        setTimeout(() => {
          if (!this.closed && this.wantedKey === null) this.resubscribe();
        }, 0);
        return;
      case 'sfu-talking':
        if (msg.talking) this.talking.add(msg.peer);
        else this.talking.delete(msg.peer);
        this.events.onTalking?.(msg.peer, msg.talking);
        return;
      default:
        this.serially(() => this.negotiate(msg));
    }
  }

  private serially(step: () => Promise<void>) {
    this.queue = this.queue.then(step).catch(() => undefined);
  }

  private async negotiate(msg: SfuServerMessage): Promise<void> {
    if (this.closed) return;
    if (msg.type === 'sfu-offer') await this.onOffer(msg.jsep, msg.streams);
    else if (msg.type === 'sfu-answer') {
      const pub = this.publishers.get(msg.source);
      if (!pub || pub.pc.signalingState !== 'have-local-offer') return;
      await pub.pc.setRemoteDescription(msg.jsep);
      for (const c of pub.remote.splice(0)) await pub.pc.addIceCandidate(c).catch(() => undefined);
    } else if (msg.type === 'sfu-trickle') {
      const candidate = msg.candidate ?? undefined;
      if (msg.target === 'subscriber') {
        if (this.sub?.remoteDescription) await this.sub.addIceCandidate(candidate).catch(() => undefined);
        else if (candidate) this.subRemote.push(candidate);
        return;
      }
      const pub = this.publishers.get(msg.target);
      if (pub?.pc.remoteDescription) await pub.pc.addIceCandidate(candidate).catch(() => undefined);
      else if (pub && candidate) pub.remote.push(candidate);
    }
  }

  /** Our camera and microphone: published on the first call, swapped in place after a device change. */
  setLocalStream(stream: MediaStream | null): void {
    this.local = stream;
    this.serially(() => this.publish('camera', stream ? stream.getTracks() : []));
  }

  /** The shared screen as a second publication (null stops it). */
  setScreen(track: MediaStreamTrack | null): void {
    this.serially(() => this.publish('screen', track ? [track] : []));
  }

  private async publish(source: SfuSource, tracks: MediaStreamTrack[]): Promise<void> {
    if (this.closed) return;
    const kinds = tracks
      .map((t) => t.kind)
      .sort()
      .join(',');
    const existing = this.publishers.get(source);
    if (existing && existing.kinds === kinds) {
      // the same kinds of media: the new tracks replace the old ones without a new offer
      for (const t of existing.pc.getTransceivers()) {
        const track = tracks.find((x) => x.kind === t.receiver.track.kind);
        if (track && t.sender.track !== track) await t.sender.replaceTrack(track).catch(() => undefined);
      }
      return;
    }
    if (existing) {
      existing.pc.close();
      this.publishers.delete(source);
      this.send({ type: 'sfu-unpublish', source });
    }
    if (tracks.length === 0) return;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers as unknown as RTCIceServer[] });
    const pub: Publisher = { pc, kinds, offered: false, queued: [], remote: [] };
    this.publishers.set(source, pub);
    const streams = source === 'camera' && this.local ? [this.local] : [];
    for (const track of tracks) {
      pc.addTransceiver(track, {
        direction: 'sendonly',
        streams,
        ...(source === 'camera' && track.kind === 'video' ? { sendEncodings: CAMERA_ENCODINGS } : {}),
      });
    }
    pc.onicecandidate = (e) => {
      const candidate = candidateOf(e.candidate);
      if (pub.offered) this.send({ type: 'sfu-trickle', target: source, candidate });
      else pub.queued.push(candidate);
    };
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    if (this.closed || this.publishers.get(source) !== pub) return;
    this.send({ type: 'sfu-publish', source, jsep: { type: 'offer', sdp: offer.sdp ?? '' } });
    pub.offered = true;
    for (const candidate of pub.queued.splice(0)) this.send({ type: 'sfu-trickle', target: source, candidate });
  }

  /**
   * The streams the page shows: asked for as a whole when the set changes, and the layer alone when
   * only a tile's size changed.
   */
  subscribe(streams: WantedStream[]): void {
    const key = streamsKey(streams);
    const before = this.wanted;
    this.wanted = streams;
    if (key !== this.wantedKey) {
      this.wantedKey = key;
      this.send({ type: 'sfu-subscribe', streams });
      return;
    }
    for (const s of streams) {
      const was = before.find((b) => b.feed === s.feed && b.source === s.source);
      if (s.substream !== undefined && was?.substream !== s.substream)
        this.send({ type: 'sfu-layer', feed: s.feed, source: s.source, substream: s.substream });
    }
  }

  /** Asks again for the current set (after the socket reconnected, the server knows nothing). */
  resubscribe(): void {
    this.wantedKey = null;
    this.subscribe(this.wanted);
  }

  private async onOffer(jsep: Jsep, streams: SfuStream[]): Promise<void> {
    if (!this.sub) {
      const pc = new RTCPeerConnection({ iceServers: this.iceServers as unknown as RTCIceServer[] });
      pc.onicecandidate = (e) =>
        this.send({ type: 'sfu-trickle', target: 'subscriber', candidate: candidateOf(e.candidate) });
      pc.ontrack = () => this.collect();
      this.sub = pc;
    }
    const pc = this.sub;
    await pc.setRemoteDescription(jsep);
    for (const c of this.subRemote.splice(0)) await pc.addIceCandidate(c).catch(() => undefined);
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    this.send({ type: 'sfu-answer', source: 'subscriber', jsep: { type: 'answer', sdp: answer.sdp ?? '' } });
    this.offerStreams = streams;
    this.collect();
  }

  /** One MediaStream per participant and source from the receiving connection's tracks (by mid). */
  private collect(): void {
    const pc = this.sub;
    if (!pc) return;
    const tracks = new Map<string, MediaStreamTrack[]>();
    for (const s of this.offerStreams) {
      const t = pc.getTransceivers().find((x) => x.mid === s.mid);
      if (!t || t.currentDirection === 'inactive' || t.currentDirection === 'stopped') continue;
      const key = `${s.feed}:${s.source}`;
      tracks.set(key, [...(tracks.get(key) ?? []), t.receiver.track]);
    }
    let changed = false;
    for (const key of [...this.remote.keys()])
      if (!tracks.has(key)) {
        this.remote.delete(key);
        changed = true;
      }
    for (const [key, list] of tracks) {
      const had = this.remote.get(key)?.getTracks() ?? [];
      const same = had.length === list.length && list.every((t) => had.includes(t));
      if (same) continue;
      // a new stream object, so the tile's <video> takes the new tracks
      this.remote.set(key, new MediaStream(list));
      changed = true;
    }
    if (changed) this.events.onStreams?.();
  }

  /** The received stream of one participant's camera or screen, if subscribed. */
  streamOf(peer: string, source: SfuSource): MediaStream | null {
    return this.remote.get(`${peer}:${source}`) ?? null;
  }

  /** 1 for the participants Janus hears talking now, 0 for the rest (for the speaker announcement). */
  levels(peers: string[]): Record<string, number> {
    return Object.fromEntries(peers.map((p) => [p, this.talking.has(p) ? 1 : 0]));
  }

  async getStats(): Promise<SfuStats> {
    const totals: SfuStats = {
      bytesReceived: 0,
      bytesSent: 0,
      framesDecoded: 0,
      audioEnergy: 0,
      peers: 0,
      receiving: 0,
    };
    for (const { pc } of this.publishers.values()) {
      (await pc.getStats()).forEach((s: { type: string; bytesSent?: number }) => {
        if (s.type === 'outbound-rtp') totals.bytesSent += s.bytesSent ?? 0;
      });
    }
    const feeds = new Set(this.offerStreams.map((s) => s.feed));
    totals.peers = feeds.size;
    if (!this.sub) return totals;
    const receiving = new Set<string>();
    (await this.sub.getStats()).forEach(
      (s: {
        type: string;
        mid?: string;
        bytesReceived?: number;
        framesDecoded?: number;
        totalAudioEnergy?: number;
      }) => {
        if (s.type !== 'inbound-rtp') return;
        totals.bytesReceived += s.bytesReceived ?? 0;
        totals.framesDecoded += s.framesDecoded ?? 0;
        totals.audioEnergy += s.totalAudioEnergy ?? 0;
        const feed = this.offerStreams.find((o) => o.mid === s.mid)?.feed;
        if (feed && (s.bytesReceived ?? 0) > 0) receiving.add(feed);
      },
    );
    totals.receiving = receiving.size;
    return totals;
  }

  close(): void {
    this.closed = true;
    for (const { pc } of this.publishers.values()) pc.close();
    this.publishers.clear();
    this.sub?.close();
    this.sub = null;
    this.remote.clear();
    this.talking.clear();
  }
}
