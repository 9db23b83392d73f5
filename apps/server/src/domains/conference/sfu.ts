import { randomBytes, randomInt } from 'node:crypto';
import { join } from 'node:path';
import {
  type ClientMessage,
  MSG,
  type ServerMessage,
  type SfuFeed,
  type SfuSource,
  type SfuStream,
} from '@trainlab/contract';
import {
  JANODE_EVENT,
  type JanusEngine,
  type JanusSubStream,
  type Jsep,
  VIDEOROOM_EVENT,
  type VideoRoomHandle,
} from '../../adapters/meeting/janus';
import type { Realtime } from '../../platform/ports/realtime';

/**
 * The media side of an sfu room (docs/conference-protocol.md, 'Media through Janus'): the hub keeps
 * every room rule and hands the `sfu-*` messages of a joined participant here. This relay drives
 * the participant's Janus handles — one publisher per source, one multistream subscriber — and
 * relays SDP and ICE, so what a page publishes and receives is decided here.
 *
 * Shared state (Realtime, so several server instances serve one room):
 * - `sfu:{room}` = the Janus room: its numeric id, its secret, the recording in progress;
 * - `sfu-feeds:{room}` hash `{peer}:{source}` → SfuFeed: who publishes (the `sfu-feeds` list).
 * Handles are per instance (the instance holding the participant's socket).
 */
export type SfuMessage = Extract<
  ClientMessage,
  { type: 'sfu-publish' | 'sfu-unpublish' | 'sfu-subscribe' | 'sfu-answer' | 'sfu-layer' | 'sfu-trickle' }
>;

export interface SfuRoomState {
  janusRoom: number;
  secret: string;
  recording: SfuRecording | null;
}
export interface SfuRecording {
  dir: string;
  trainingId: number;
  userId: number;
  startedAt: string;
}

export interface SfuMember {
  connId: string;
  key: string;
  moderator: boolean;
}

export interface SfuRelayOptions {
  /** the most video streams one page may subscribe to at once */
  maxVideo: number;
  /** JANUS_RECORD_DIR: where rooms record; null = no server-side recording */
  recordDir: string | null;
  send(connId: string, msg: ServerMessage): void;
  broadcast(key: string, msg: ServerMessage): Promise<void>;
  /** a recording's files are complete (recording off, or the room is gone): turn them into a playable file */
  recorded(recording: SfuRecording): Promise<void>;
}

interface Subscriber {
  handle: VideoRoomHandle;
  /** the subscription as Janus last described it */
  streams: JanusSubStream[];
}
interface Peer {
  member: SfuMember;
  publishers: Map<SfuSource, VideoRoomHandle>;
  subscriber: Subscriber | null;
}

/** A day: room state outlives any class; a room left empty is cleaned up at once anyway. */
const STATE_TTL_MS = 24 * 3600_000;
const feedKey = (peer: string, source: SfuSource) => `${peer}:${source}`;
/** a Janus display is `{peer id}:{source}`: how a Janus feed is traced back to one of our peers */
export function parseDisplay(display: string | undefined): { feed: string; source: SfuSource } | null {
  const m = /^(.+):(camera|screen)$/.exec(display ?? '');
  return m ? { feed: m[1]!, source: m[2] as SfuSource } : null;
}

export class SfuUnavailable extends Error {}

export class SfuRelay {
  private peers = new Map<string, Peer>();

  constructor(
    private engine: JanusEngine,
    private realtime: Realtime,
    private opts: SfuRelayOptions,
  ) {
    // Janus's session is gone (restart, network): every handle with it; pages publish again
    engine.on('lost', () => {
      for (const peer of this.peers.values()) {
        peer.publishers.clear();
        peer.subscriber = null;
      }
    });
  }

  /** The room's Janus room, created on first use (or again after a Janus restart). */
  async openRoom(key: string): Promise<SfuRoomState> {
    let state = await this.state(key);
    if (!state) {
      const fresh: SfuRoomState = {
        janusRoom: randomInt(1, 2 ** 47),
        secret: randomBytes(18).toString('base64url'),
        recording: null,
      };
      // two instances opening the same room at once: the first claim wins, the other reads it
      if (await this.realtime.claim(`sfu:${key}`, JSON.stringify(fresh), STATE_TTL_MS)) state = fresh;
      else state = (await this.state(key))!;
    }
    if (!(await this.engine.roomExists(state.janusRoom))) {
      await this.engine
        .createRoom(state.janusRoom, { secret: state.secret, ...this.recDirOption(state) })
        .catch(async (e) => {
          // created meanwhile by another instance: fine
          if (!(await this.engine.roomExists(state!.janusRoom))) throw e;
        });
    }
    return state;
  }

  private recDirOption(state: SfuRoomState) {
    return state.recording ? { recDir: state.recording.dir } : {};
  }

  async state(key: string): Promise<SfuRoomState | null> {
    const raw = await this.realtime.get(`sfu:${key}`);
    return raw ? (JSON.parse(raw) as SfuRoomState) : null;
  }

  private async saveState(key: string, state: SfuRoomState) {
    await this.realtime.set(`sfu:${key}`, JSON.stringify(state), STATE_TTL_MS);
  }

  async feeds(key: string): Promise<SfuFeed[]> {
    const all = await this.realtime.hgetall(`sfu-feeds:${key}`);
    return Object.values(all).map((v) => JSON.parse(v) as SfuFeed);
  }

  private async announceFeeds(key: string) {
    await this.opts.broadcast(key, { type: 'sfu-feeds', feeds: await this.feeds(key) });
  }

  /**
   * A participant is joining the sfu room: its record here, the Janus room opened (before the page
   * hears `joined`, so it can publish at once), and what to tell the page after `joined`: the
   * publishers it can subscribe to. Without Janus the meeting goes on (chat, whiteboard) and the
   * page is told its media cannot start yet.
   */
  async enter(member: SfuMember): Promise<ServerMessage[]> {
    this.peers.set(member.connId, { member, publishers: new Map(), subscriber: null });
    try {
      await this.openRoom(member.key);
      return [{ type: 'sfu-feeds', feeds: await this.feeds(member.key) }];
    } catch {
      return [{ type: 'error', message: MSG.conferenceMediaUnavailable }];
    }
  }

  /** per participant, its sfu-* messages one after another (a subscribe must see the one before it done) */
  private chains = new Map<string, Promise<void>>();

  handle(connId: string, msg: SfuMessage): Promise<void> {
    const next = (this.chains.get(connId) ?? Promise.resolve()).then(() => this.handleNow(connId, msg));
    const settled = next.catch(() => undefined);
    this.chains.set(connId, settled);
    void settled.then(() => {
      if (this.chains.get(connId) === settled) this.chains.delete(connId);
    });
    return next;
  }

  private async handleNow(connId: string, msg: SfuMessage): Promise<void> {
    const peer = this.peers.get(connId);
    if (!peer) return this.opts.send(connId, { type: 'error', message: MSG.conferenceWrongMedia });
    try {
      switch (msg.type) {
        case 'sfu-publish':
          return await this.publish(peer, msg.source, msg.jsep);
        case 'sfu-unpublish':
          return await this.unpublish(peer, msg.source, true);
        case 'sfu-subscribe':
          return await this.subscribe(peer, msg.streams);
        case 'sfu-answer': {
          if (!peer.subscriber) return this.opts.send(connId, { type: 'error', message: MSG.conferenceBadMessage });
          await peer.subscriber.handle.start({ jsep: msg.jsep });
          return;
        }
        case 'sfu-layer':
          return await this.layer(peer, msg.feed, msg.source, msg.substream);
        case 'sfu-trickle': {
          const handle = msg.target === 'subscriber' ? peer.subscriber?.handle : peer.publishers.get(msg.target);
          if (!handle) return this.opts.send(connId, { type: 'error', message: MSG.conferenceBadMessage });
          if (msg.candidate) await handle.trickle(msg.candidate);
          else await handle.trickleComplete();
          return;
        }
      }
    } catch (e) {
      // Janus refused (a bad SDP) or is unreachable: the page is told, the room goes on
      const unreachable = e instanceof Error && /not reachable|closed|timeout/i.test(e.message);
      this.opts.send(connId, {
        type: 'error',
        message: unreachable ? MSG.conferenceMediaUnavailable : MSG.conferenceBadMessage,
      });
    }
  }

  private async publish(peer: Peer, source: SfuSource, jsep: Jsep) {
    const { key, connId, moderator } = peer.member;
    const state = await this.openRoom(key);
    let handle = peer.publishers.get(source);
    let answer: Jsep | undefined;
    if (handle) {
      // the same source again: renegotiate (another camera, a restarted share)
      answer = (await handle.configure({ audio: true, video: true, jsep })).jsep;
    } else {
      handle = await this.engine.attach();
      this.wirePublisher(peer, source, handle);
      try {
        const joined = await handle.joinConfigurePublisher({
          room: state.janusRoom,
          display: feedKey(connId, source),
          audio: true,
          video: true,
          jsep,
        });
        answer = joined.jsep;
      } catch (e) {
        await handle.detach().catch(() => {});
        throw e;
      }
      if (!this.peers.has(connId)) {
        // left while Janus was answering
        await handle.detach().catch(() => {});
        return;
      }
      peer.publishers.set(source, handle);
    }
    if (!answer) throw new Error('Janus answered without SDP');
    this.opts.send(connId, { type: 'sfu-answer', source, jsep: { type: 'answer', sdp: answer.sdp } });
    const feed: SfuFeed = { peer: connId, source, moderator };
    await this.realtime.hset(`sfu-feeds:${key}`, feedKey(connId, source), JSON.stringify(feed));
    await this.announceFeeds(key);
  }

  private wirePublisher(peer: Peer, source: SfuSource, handle: VideoRoomHandle) {
    const { connId, key } = peer.member;
    handle.on(VIDEOROOM_EVENT.VIDEOROOM_TALKING, (e: { feed?: number | string; talking?: boolean }) => {
      // Janus tells every publisher of the room; only the speaker's own handle relays it (once)
      if (source !== 'camera' || e.feed !== handle.feed) return;
      void this.opts.broadcast(key, { type: 'sfu-talking', peer: connId, talking: !!e.talking }).catch(() => {});
    });
    handle.on(JANODE_EVENT.HANDLE_TRICKLE, (e: { candidate?: unknown; completed?: boolean }) => {
      const candidate = e.completed ? null : (e.candidate as { candidate: string } | undefined);
      if (candidate === undefined) return;
      this.opts.send(connId, { type: 'sfu-trickle', target: source, candidate });
    });
    // media is up: the feed can be subscribed to now, so pages that asked too early ask again
    handle.on('handle_webrtcup', () => void this.announceFeeds(key).catch(() => {}));
  }

  private async unpublish(peer: Peer, source: SfuSource, announce: boolean) {
    const handle = peer.publishers.get(source);
    if (!handle) return;
    peer.publishers.delete(source);
    await handle.detach().catch(() => {});
    await this.realtime.hdel(`sfu-feeds:${peer.member.key}`, feedKey(peer.member.connId, source));
    if (announce) await this.announceFeeds(peer.member.key);
  }

  /**
   * The page's whole wanted set → one multistream subscription. Wanted streams whose publisher is
   * not (yet) sending are left out; `sfu-feeds` tells the page when to ask again.
   */
  private async subscribe(peer: Peer, wanted: { feed: string; source: SfuSource; substream?: 0 | 1 | 2 }[]) {
    const { connId, key } = peer.member;
    const unique = new Map(wanted.filter((w) => w.feed !== connId).map((w) => [feedKey(w.feed, w.source), w]));
    // each wanted stream carries one video: the cap bounds what a page decodes however large the class
    if (unique.size > this.opts.maxVideo) {
      return this.opts.send(connId, { type: 'error', message: MSG.conferenceTooManyStreams });
    }
    const state = await this.openRoom(key);
    const live = new Map<string, number | string>();
    for (const p of await this.engine.publishers(state.janusRoom, state.secret)) {
      const who = parseDisplay(p.display);
      if (who) live.set(feedKey(who.feed, who.source), p.feed);
    }
    const want = new Set([...unique.keys()].filter((k) => live.has(k)));
    const current = new Map<string, number | string>();
    for (const s of peer.subscriber?.streams ?? []) {
      const who = parseDisplay(s.feed_display);
      if (who && s.active !== false && s.feed_id !== undefined) current.set(feedKey(who.feed, who.source), s.feed_id);
    }
    const add = [...want].filter((k) => !current.has(k)).map((k) => ({ feed: live.get(k)! }));
    const remove = [...current.keys()].filter((k) => !want.has(k)).map((k) => ({ feed: current.get(k)! }));
    if (add.length || remove.length) {
      let result: { jsep?: Jsep; streams?: JanusSubStream[] };
      if (!peer.subscriber) {
        if (!add.length) return;
        const handle = await this.engine.attach();
        this.wireSubscriber(peer, handle);
        try {
          result = await handle.joinSubscriber({ room: state.janusRoom, streams: add, use_msid: false });
        } catch (e) {
          await handle.detach().catch(() => {});
          throw e;
        }
        if (!this.peers.has(connId)) {
          await handle.detach().catch(() => {});
          return;
        }
        peer.subscriber = { handle, streams: result.streams ?? [] };
      } else {
        result = await peer.subscriber.handle.update({
          ...(add.length ? { subscribe: add } : {}),
          ...(remove.length ? { unsubscribe: remove } : {}),
        });
        if (result.streams) peer.subscriber.streams = result.streams;
      }
      if (result.jsep) this.sendOffer(peer, result.jsep);
    }
    for (const w of unique.values()) {
      if (w.substream !== undefined && want.has(feedKey(w.feed, w.source)))
        await this.layer(peer, w.feed, w.source, w.substream);
    }
  }

  private wireSubscriber(peer: Peer, handle: VideoRoomHandle) {
    // Janus renegotiates on its own when a subscribed publisher leaves (autoupdate)
    handle.on(VIDEOROOM_EVENT.VIDEOROOM_UPDATED, (e: { jsep?: Jsep; streams?: JanusSubStream[] }) => {
      if (!peer.subscriber || peer.subscriber.handle !== handle) return;
      if (e.streams) peer.subscriber.streams = e.streams;
      if (e.jsep) this.sendOffer(peer, e.jsep);
    });
    handle.on(JANODE_EVENT.HANDLE_TRICKLE, (e: { candidate?: unknown; completed?: boolean }) => {
      const candidate = e.completed ? null : (e.candidate as { candidate: string } | undefined);
      if (candidate === undefined) return;
      this.opts.send(peer.member.connId, { type: 'sfu-trickle', target: 'subscriber', candidate });
    });
  }

  private sendOffer(peer: Peer, jsep: Jsep) {
    const streams: SfuStream[] = [];
    for (const s of peer.subscriber?.streams ?? []) {
      const who = parseDisplay(s.feed_display);
      if (!who || s.active === false || (s.type !== 'audio' && s.type !== 'video')) continue;
      streams.push({ mid: s.mid, feed: who.feed, source: who.source, kind: s.type });
    }
    this.opts.send(peer.member.connId, { type: 'sfu-offer', jsep: { type: 'offer', sdp: jsep.sdp }, streams });
  }

  private async layer(peer: Peer, feed: string, source: SfuSource, substream: 0 | 1 | 2) {
    const stream = peer.subscriber?.streams.find((s) => {
      const who = parseDisplay(s.feed_display);
      return s.type === 'video' && s.active !== false && who?.feed === feed && who.source === source;
    });
    if (!peer.subscriber || !stream) return;
    await peer.subscriber.handle.configure({ streams: [{ mid: stream.mid, substream }] });
  }

  /** The participant left (leave, closed socket, end-all): its handles are detached. */
  async left(connId: string): Promise<void> {
    const peer = this.peers.get(connId);
    if (!peer) return;
    this.peers.delete(connId);
    const sources = [...peer.publishers.keys()];
    for (const source of sources) await this.unpublish(peer, source, false).catch(() => {});
    await peer.subscriber?.handle.detach().catch(() => {});
    peer.subscriber = null;
    if (sources.length) await this.announceFeeds(peer.member.key).catch(() => {});
  }

  /**
   * Server-side recording on or off (a moderator's `recording`). On: the room records into a
   * fresh folder under JANUS_RECORD_DIR. Off: the folder is complete and goes to the job.
   */
  async setRecording(key: string, on: boolean, who: { trainingId: number; userId: number }): Promise<boolean> {
    if (!this.opts.recordDir) return false;
    const state = await this.openRoom(key);
    if (on) {
      if (state.recording) return true;
      const recording: SfuRecording = {
        dir: join(this.opts.recordDir, `room-${state.janusRoom}-${Date.now()}`),
        trainingId: who.trainingId,
        userId: who.userId,
        startedAt: new Date().toISOString(),
      };
      await this.engine.setRecording(state.janusRoom, state.secret, true, recording.dir);
      await this.saveState(key, { ...state, recording });
      return true;
    }
    if (!state.recording) return true;
    await this.engine.setRecording(state.janusRoom, state.secret, false);
    await this.saveState(key, { ...state, recording: null });
    await this.opts.recorded(state.recording);
    return true;
  }

  /**
   * The room is over (end-all, or its last participant left): the Janus room is destroyed (its
   * recorders close their files) and a recording in progress goes to the job.
   */
  async closeRoom(key: string): Promise<void> {
    const state = await this.state(key);
    if (!state) return;
    await this.realtime.take(`sfu:${key}`);
    for (const field of Object.keys(await this.realtime.hgetall(`sfu-feeds:${key}`)))
      await this.realtime.hdel(`sfu-feeds:${key}`, field);
    for (const peer of [...this.peers.values()]) if (peer.member.key === key) await this.left(peer.member.connId);
    await this.engine.destroyRoom(state.janusRoom, state.secret).catch(() => {});
    if (state.recording) await this.opts.recorded(state.recording);
  }

  /** Local participants with media state (metrics, tests). */
  get localPeers(): number {
    return this.peers.size;
  }
}
