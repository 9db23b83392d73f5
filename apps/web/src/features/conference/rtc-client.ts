import type { SfuFeed } from '@trainlab/contract';
import {
  type ClientMessage,
  type ConferenceRoomKind,
  type PeerInfo,
  type ServerMessage,
  serverMessage,
} from '@trainlab/contract';
import type { WantedStream } from './grid-paging';
import { isSfuMessage, SfuSession } from './sfu-client';

/**
 * A small WebRTC mesh client for the built-in meeting provider (docs/conference-protocol.md):
 * one RTCPeerConnection per peer, signalled over /ws/conference. The newcomer offers to the peers
 * already in the room (they receive `peer-joined` and wait for its offer), so exactly one side
 * of each pair offers.
 *
 * Every connection carries one audio and one video transceiver, both 'sendrecv' from the first
 * offer, whether or not the camera and microphone are open yet: the local tracks are put on them
 * with `replaceTrack`, so media opened late, a device change or screen sharing needs no new
 * negotiation.
 *
 * A room on the selective forwarding unit (`joined.media === 'sfu'`) keeps this socket and its
 * room messages, but its media goes through Janus: sfu-client.ts, to which the `sfu-*` messages
 * are handed; `signal` is not used there.
 */

export type RtcIceServer = Record<string, unknown>;

export interface RemotePeer extends PeerInfo {
  stream: MediaStream | null;
  /** the shared screen, received as its own stream (SFU rooms; in the mesh it replaces the camera) */
  screen?: MediaStream | null;
}

/** How the room carries media: every browser to every other, or through the SFU (Janus). */
export type MediaMode = 'mesh' | 'sfu';

export interface ChatLine {
  from: string;
  name: string;
  text: string;
  at: string;
}

export type RoomPhase = 'idle' | 'connecting' | 'joined' | 'left' | 'ended';

/** What the page listens to; each is optional. */
export interface RtcClientEvents {
  onJoined?: (me: PeerInfo, peers: PeerInfo[], isModerator: boolean, media: MediaMode) => void;
  /** SFU rooms: the published streams of the room changed (the full list) */
  onFeeds?: (feeds: SfuFeed[]) => void;
  /** SFU rooms: Janus hears a participant start or stop talking */
  onTalking?: (peer: string, talking: boolean) => void;
  onPeers?: (peers: RemotePeer[]) => void;
  onChat?: (line: ChatLine) => void;
  onMuted?: (kind: 'audio' | 'video', by: string) => void;
  onEnded?: (by: string) => void;
  onWhiteboard?: (scene: Record<string, unknown>, by: string) => void;
  /** another participant raised or lowered a hand (their PeerInfo.hand follows in onPeers) */
  onHand?: (from: string, raised: boolean) => void;
  /** a moderator's recording started or stopped */
  onRecording?: (on: boolean, by: string) => void;
  /** an `error` message of the server (waiting for host, already open, moderator only, …) */
  onServerError?: (message: string) => void;
  /** the socket closed for good (code 4409 = already open, 4000 = ended, 4401 = unauthenticated, or reconnecting gave up) */
  onClosed?: (code: number) => void;
  /** the connection was lost or the server restarts: connecting again in `delayMs` (attempt 1, 2, …) */
  onReconnecting?: (attempt: number, delayMs: number) => void;
}

export interface JoinOptions {
  wsUrl: string;
  slug: string;
  /** a take call's meeting room instead of a training's (then `slug` is the take call's) */
  room?: ConferenceRoomKind;
  token?: string;
  ticket?: string;
  iceServers?: RtcIceServer[];
  /** a guest's ticket is good for one connection: a new one for each reconnect */
  freshTicket?: () => Promise<string>;
}

/**
 * Reconnecting (docs/conference-protocol.md, 'reconnect'): 0.5 s doubling to 10 s, each delay
 * between half and all of that (so a restarted server is not met by every page at once), 8 tries.
 */
export const RECONNECT = { baseMs: 500, maxMs: 10_000, attempts: 8 };
/** Closes after which connecting again cannot help: ended, normal (our leave), unauthenticated, already open. */
const FINAL_CLOSE_CODES = new Set([1000, 4000, 4401, 4409]);

export function reconnectDelay(attempt: number, random = Math.random()): number {
  const full = Math.min(RECONNECT.maxMs, RECONNECT.baseMs * 2 ** (attempt - 1));
  return Math.round(full * (0.5 + random / 2));
}

/** The part of the client the page uses: the page gets one through `createRtcClient` (tests inject a fake). */
export interface RtcClientLike {
  join(opts: JoinOptions): void;
  /** retry `join` on the open socket (after the host started) */
  rejoin(): void;
  leave(): void;
  setLocalStream(stream: MediaStream | null): void;
  /** swaps the outgoing video track (screen sharing) on every peer connection */
  replaceVideoTrack(track: MediaStreamTrack | null): Promise<void>;
  send(message: ClientMessage): void;
  getStats(): Promise<RoomStats>;
  /** each peer's incoming audio level (0–1) as the browser last measured it */
  audioLevels?(): Promise<Record<string, number>>;
  /** SFU rooms: the whole set of streams the page shows now */
  subscribe?(streams: WantedStream[]): void;
}

/** WebRTC statistics of the page summed over its peer connections (journeys and the mesh benchmark). */
export interface RoomStats {
  bytesReceived: number;
  bytesSent: number;
  /** video frames decoded from all peers */
  framesDecoded: number;
  peers: number;
  /** peers from whom media bytes have arrived */
  receiving: number;
  /** energy of the audio received (grows while someone is heard) */
  audioEnergy: number;
  media: MediaMode;
}

type PeerEntry = { info: PeerInfo; pc: RTCPeerConnection; stream: MediaStream | null; pending: RTCIceCandidateInit[] };

type SignalData =
  | { kind: 'offer' | 'answer'; sdp: RTCSessionDescriptionInit }
  | { kind: 'candidate'; candidate: RTCIceCandidateInit };

const HEARTBEAT_MS = 20_000;

export class RtcClient implements RtcClientLike {
  private ws: WebSocket | null = null;
  private peers = new Map<string, PeerEntry>();
  private local: MediaStream | null = null;
  private videoOverride: MediaStreamTrack | null = null;
  private iceServers: RtcIceServer[] = [];
  private slug = '';
  private room: ConferenceRoomKind | undefined;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private joinOpts: JoinOptions | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** SFU rooms: the media session, and the other participants (no peer connections to them) */
  private sfu: SfuSession | null = null;
  private roster = new Map<string, PeerInfo>();
  private wanted: WantedStream[] = [];
  me: PeerInfo | null = null;

  constructor(private readonly events: RtcClientEvents) {}

  join(opts: JoinOptions): void {
    if (this.ws || this.retryTimer) this.leave();
    this.joinOpts = opts;
    this.attempt = 0;
    this.connect(opts, opts.ticket);
  }

  private connect(opts: JoinOptions, ticket: string | undefined): void {
    this.slug = opts.slug;
    this.room = opts.room;
    this.iceServers = opts.iceServers ?? [];
    const ws = new WebSocket(opts.wsUrl);
    this.ws = ws;
    ws.onopen = () => {
      this.send(ticket ? { type: 'auth', ticket } : { type: 'auth', token: opts.token ?? '' });
      this.send(this.joinMessage());
      this.heartbeat = setInterval(() => this.send({ type: 'ping' }), HEARTBEAT_MS);
    };
    ws.onmessage = (event) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const result = serverMessage.safeParse(parsed);
      if (!result.success) return;
      if (isSfuMessage(result.data)) this.sfu?.handle(result.data);
      else void this.handle(result.data);
    };
    ws.onclose = (event) => {
      this.stopHeartbeat();
      this.closePeers();
      if (this.ws !== ws) return;
      this.ws = null;
      if (FINAL_CLOSE_CODES.has(event.code)) this.events.onClosed?.(event.code);
      else this.reconnect(event.code);
    };
  }

  /** Drops the socket in hand (if any) and connects again after the next backoff delay. */
  private reconnect(lastCode: number): void {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      old.close(1000);
    }
    this.stopHeartbeat();
    this.closePeers();
    const opts = this.joinOpts;
    if (!opts || this.retryTimer) return;
    if (this.attempt >= RECONNECT.attempts) {
      this.events.onClosed?.(lastCode);
      return;
    }
    this.attempt += 1;
    const delay = reconnectDelay(this.attempt);
    this.events.onReconnecting?.(this.attempt, delay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.joinOpts !== opts) return;
      const ticket = opts.freshTicket ? opts.freshTicket() : Promise.resolve(opts.ticket);
      ticket.then(
        (t) => {
          if (this.joinOpts === opts) this.connect(opts, t);
        },
        // no ticket now (the server is still down): the next attempt
        () => this.reconnect(lastCode),
      );
    }, delay);
  }

  rejoin(): void {
    this.send(this.joinMessage());
  }

  private joinMessage(): ClientMessage {
    return this.room ? { type: 'join', slug: this.slug, room: this.room } : { type: 'join', slug: this.slug };
  }

  leave(): void {
    this.joinOpts = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.send({ type: 'leave' });
    this.stopHeartbeat();
    this.closePeers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.close(1000);
    }
  }

  send(message: ClientMessage): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  setLocalStream(stream: MediaStream | null): void {
    if (stream === this.local) return;
    this.local = stream;
    this.sfu?.setLocalStream(stream);
    void Promise.all([...this.peers.values()].map(({ pc }) => this.sendLocal(pc)));
  }

  /** The mesh sends the screen instead of the camera; the SFU publishes it beside the camera. */
  async replaceVideoTrack(track: MediaStreamTrack | null): Promise<void> {
    this.videoOverride = track;
    if (this.sfu) {
      this.sfu.setScreen(track);
      return;
    }
    await Promise.all([...this.peers.values()].map(({ pc }) => this.sendLocal(pc)));
  }

  subscribe(streams: WantedStream[]): void {
    this.wanted = streams;
    this.sfu?.subscribe(streams);
  }

  /** The track this page sends for a kind: the shared screen replaces the camera. */
  private outgoing(kind: string): MediaStreamTrack | null {
    if (kind === 'video' && this.videoOverride) return this.videoOverride;
    return (kind === 'audio' ? this.local?.getAudioTracks()[0] : this.local?.getVideoTracks()[0]) ?? null;
  }

  /** Puts the current local tracks on the connection's transceivers (no renegotiation needed). */
  private async sendLocal(pc: RTCPeerConnection): Promise<void> {
    if (pc.signalingState === 'closed') return;
    await Promise.all(
      pc.getTransceivers().map(async (t) => {
        const kind = t.receiver.track?.kind;
        if (!kind || t.currentDirection === 'stopped') return;
        const track = this.outgoing(kind);
        if (t.sender.track !== track) await t.sender.replaceTrack(track).catch(() => undefined);
        if (this.local) t.sender.setStreams?.(this.local);
      }),
    );
  }

  async getStats(): Promise<RoomStats> {
    if (this.sfu) return { ...(await this.sfu.getStats()), media: 'sfu' };
    const totals: RoomStats = {
      bytesReceived: 0,
      bytesSent: 0,
      framesDecoded: 0,
      peers: this.peers.size,
      receiving: 0,
      audioEnergy: 0,
      media: 'mesh',
    };
    for (const { pc } of this.peers.values()) {
      const report = await pc.getStats();
      let fromPeer = 0;
      report.forEach(
        (s: {
          type: string;
          bytesReceived?: number;
          bytesSent?: number;
          framesDecoded?: number;
          totalAudioEnergy?: number;
        }) => {
          if (s.type === 'inbound-rtp') {
            fromPeer += s.bytesReceived ?? 0;
            totals.framesDecoded += s.framesDecoded ?? 0;
            totals.audioEnergy += s.totalAudioEnergy ?? 0;
          } else if (s.type === 'outbound-rtp') totals.bytesSent += s.bytesSent ?? 0;
        },
      );
      totals.bytesReceived += fromPeer;
      if (fromPeer > 0) totals.receiving += 1;
    }
    return totals;
  }

  async audioLevels(): Promise<Record<string, number>> {
    if (this.sfu) return this.sfu.levels([...this.roster.keys()]);
    const levels: Record<string, number> = {};
    for (const [id, { pc }] of this.peers) {
      const report = await pc.getStats();
      let level = 0;
      report.forEach((s: { type: string; kind?: string; audioLevel?: number }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') level = Math.max(level, s.audioLevel ?? 0);
      });
      levels[id] = level;
    }
    return levels;
  }

  private async handle(msg: ServerMessage): Promise<void> {
    if (this.sfu && this.handleInSfu(msg)) return;
    switch (msg.type) {
      case 'joined': {
        this.attempt = 0;
        this.me = msg.you;
        if (msg.ice_servers.length > 0) this.iceServers = msg.ice_servers;
        // absent: a server of the mesh only
        const media: MediaMode = msg.media ?? 'mesh';
        if (media === 'sfu') {
          this.startSfu(msg.peers);
          this.events.onJoined?.(msg.you, msg.peers, msg.isModerator, media);
          this.emitPeers();
          return;
        }
        this.events.onJoined?.(msg.you, msg.peers, msg.isModerator, media);
        for (const peer of msg.peers) {
          const entry = this.addPeer(peer, true);
          const offer = await entry.pc.createOffer();
          await entry.pc.setLocalDescription(offer);
          this.signal(peer.id, { kind: 'offer', sdp: offer });
        }
        this.emitPeers();
        return;
      }
      case 'peer-joined':
        this.addPeer(msg.peer, false);
        this.emitPeers();
        return;
      case 'peer-left': {
        const entry = this.peers.get(msg.id);
        entry?.pc.close();
        this.peers.delete(msg.id);
        this.emitPeers();
        return;
      }
      case 'signal':
        await this.onSignal(msg.from, msg.data as SignalData);
        return;
      case 'chat':
        this.events.onChat?.({ from: msg.from, name: msg.name, text: msg.text, at: msg.at });
        return;
      case 'muted':
        for (const track of this.local?.getTracks() ?? []) if (track.kind === msg.kind) track.enabled = false;
        this.events.onMuted?.(msg.kind, msg.by);
        return;
      case 'ended':
        this.events.onEnded?.(msg.by);
        return;
      case 'whiteboard':
        this.events.onWhiteboard?.(msg.scene, msg.by);
        return;
      case 'hand': {
        const entry = this.peers.get(msg.from);
        if (entry) entry.info = { ...entry.info, hand: msg.raised };
        this.events.onHand?.(msg.from, msg.raised);
        this.emitPeers();
        return;
      }
      case 'recording':
        this.events.onRecording?.(msg.on, msg.by);
        return;
      case 'error':
        this.events.onServerError?.(msg.message);
        return;
      case 'reconnect':
        // the server is going away: connect again rather than wait for its close
        this.reconnect(1012);
        return;
      default:
        return;
    }
  }

  /** Joined a room on the SFU: publish our media, ask again for what the page shows. */
  private startSfu(peers: PeerInfo[]) {
    this.sfu?.close();
    this.roster = new Map(peers.map((p) => [p.id, p]));
    const sfu = new SfuSession((m) => this.send(m), this.iceServers, {
      onFeeds: (feeds) => this.events.onFeeds?.(feeds),
      onTalking: (peer, talking) => this.events.onTalking?.(peer, talking),
      onStreams: () => this.emitPeers(),
    });
    this.sfu = sfu;
    sfu.setLocalStream(this.local);
    if (this.videoOverride) sfu.setScreen(this.videoOverride);
    if (this.wanted.length > 0) sfu.subscribe(this.wanted);
  }

  /** The roster messages of an SFU room (no peer connections); false: handled as in the mesh. */
  private handleInSfu(msg: ServerMessage): boolean {
    switch (msg.type) {
      case 'peer-joined':
        this.roster.set(msg.peer.id, msg.peer);
        break;
      case 'peer-left':
        this.roster.delete(msg.id);
        break;
      case 'hand': {
        const info = this.roster.get(msg.from);
        if (info) this.roster.set(msg.from, { ...info, hand: msg.raised });
        this.events.onHand?.(msg.from, msg.raised);
        break;
      }
      case 'signal':
        return true;
      default:
        return false;
    }
    this.emitPeers();
    return true;
  }

  private addPeer(info: PeerInfo, offering: boolean): PeerEntry {
    const existing = this.peers.get(info.id);
    if (existing) return existing;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers as unknown as RTCIceServer[] });
    const entry: PeerEntry = { info, pc, stream: null, pending: [] };
    // The offering side creates the two transceivers; the answering side gets them from the offer.
    if (offering)
      for (const kind of ['audio', 'video'] as const)
        pc.addTransceiver(this.outgoing(kind) ?? kind, {
          direction: 'sendrecv',
          streams: this.local ? [this.local] : [],
        });
    pc.onicecandidate = (e) => {
      if (e.candidate) this.signal(info.id, { kind: 'candidate', candidate: e.candidate.toJSON() });
    };
    pc.ontrack = (e) => {
      const stream = e.streams[0] ?? entry.stream ?? new MediaStream();
      if (!e.streams[0]) stream.addTrack(e.track);
      entry.stream = stream;
      this.emitPeers();
    };
    this.peers.set(info.id, entry);
    return entry;
  }

  private async onSignal(from: string, data: SignalData): Promise<void> {
    const entry = this.peers.get(from);
    if (!entry || !data || typeof data !== 'object') return;
    const { pc } = entry;
    if (data.kind === 'offer') {
      await pc.setRemoteDescription(data.sdp);
      for (const t of pc.getTransceivers()) if (t.direction === 'recvonly') t.direction = 'sendrecv';
      await this.sendLocal(pc);
      await this.flushCandidates(entry);
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      this.signal(from, { kind: 'answer', sdp: answer });
    } else if (data.kind === 'answer') {
      await pc.setRemoteDescription(data.sdp);
      await this.flushCandidates(entry);
    } else if (data.kind === 'candidate') {
      if (pc.remoteDescription) await pc.addIceCandidate(data.candidate).catch(() => {});
      else entry.pending.push(data.candidate);
    }
  }

  private async flushCandidates(entry: PeerEntry) {
    for (const c of entry.pending.splice(0)) await entry.pc.addIceCandidate(c).catch(() => {});
  }

  private signal(to: string, data: SignalData) {
    this.send({ type: 'signal', to, data: JSON.parse(JSON.stringify(data)) });
  }

  private emitPeers() {
    const sfu = this.sfu;
    if (sfu) {
      this.events.onPeers?.(
        [...this.roster.values()].map((p) => ({
          ...p,
          stream: sfu.streamOf(p.id, 'camera'),
          screen: sfu.streamOf(p.id, 'screen'),
        })),
      );
      return;
    }
    this.events.onPeers?.([...this.peers.values()].map((p) => ({ ...p.info, stream: p.stream })));
  }

  private closePeers() {
    for (const { pc } of this.peers.values()) pc.close();
    this.peers.clear();
    this.sfu?.close();
    this.sfu = null;
    this.roster.clear();
    this.emitPeers();
  }

  private stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

export type CreateRtcClient = (events: RtcClientEvents) => RtcClientLike;
export const createRtcClient: CreateRtcClient = (events) => new RtcClient(events);
