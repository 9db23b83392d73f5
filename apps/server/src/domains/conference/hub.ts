import { randomBytes } from 'node:crypto';
import {
  type ClientMessage,
  type ConferenceRoomKind,
  clientMessage,
  MSG,
  type PeerInfo,
  type ServerMessage,
  WS_MAX_MESSAGE_BYTES,
} from '@trainlab/contract';
import { type AuthContext, resolveSession } from '../../platform/http/auth-context';
import type { Realtime } from '../../platform/ports/realtime';
import { takeCallRoomMember } from '../take-calls/room';
import { closeConferenceAttendance, openConferenceAttendance } from '../trainings/attendance';
import { type ConferenceCtx, type GuestTicket, participantOf, storeWhiteboard, trainingBy } from './service';
import type { SfuMessage, SfuRelay } from './sfu';

export type RoomMedia = 'mesh' | 'sfu';

/**
 * Conference rooms of one server instance (protocol: docs/conference-protocol.md).
 *
 * Shared state lives in the Realtime adapter so several instances serve one room:
 * - `session:{room}:{user}` = connection id: one open session per account and room (TTL
 *   refreshed by the heartbeat, so a crashed instance's claims expire);
 * - `room:{room}` hash peer id → PeerInfo: who is in the room;
 * - channel `room:{room}`: events every instance delivers to its own sockets.
 * {room} is a training's id, or `tc-{id}` for a take call's meeting room.
 */

/** The parts of a `ws` WebSocket the hub uses (the package ships no types). */
export interface WebSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean) => void): void;
  on(event: 'pong' | 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

type RoomEvent =
  | { kind: 'broadcast'; msg: ServerMessage; except?: string }
  | { kind: 'direct'; to: string; msg: ServerMessage }
  | { kind: 'end'; by: string };

interface Conn {
  id: string;
  ws: WebSocket;
  alive: boolean;
  auth: AuthContext | null;
  guest: GuestTicket | null;
  name: string;
  /**
   * key: the room's name in the shared state — a training's id (as before take-call rooms existed),
   * or `tc-{id}` for a take call's room, which has no training: no attendance, no saved whiteboard.
   */
  room: {
    key: string;
    trainingId: number | null;
    info: PeerInfo;
    enrolmentId: number | null;
    sessionKey: string | null;
    /** how the room's media flows (decided when the room opened) */
    media: RoomMedia;
  } | null;
  queue: Promise<void>;
  closed: boolean;
}

/** A room's media choice outlives any class; the last one out clears it anyway. */
const MEDIA_CHOICE_TTL_MS = 24 * 3600_000;

/** WebSocket close code 1012: Service Restart. */
export const RESTART_CLOSE_CODE = 1012;
/** How long a socket told to reconnect has to finish its close handshake before it is cut. */
const RESTART_WAIT_MS = 2000;

export interface HubOptions {
  graceMs: number;
  heartbeatMs: number;
  /** the ICE servers for one participant (a TURN credential of its own when a relay is configured) */
  iceServers: (participantId: string) => Record<string, unknown>[];
  /**
   * Janus, when configured: the relay of the sfu rooms, and which media a room opening now gets
   * (`trainingId` null: a take-call room).
   */
  sfu?: { relay: SfuRelay; choose(room: { key: string; trainingId: number | null }): Promise<RoomMedia> };
}

export class ConferenceHub {
  private conns = new Map<string, Conn>();
  /** room key → local peer ids + the channel subscription */
  private rooms = new Map<string, { peers: Set<string>; unsubscribe: Promise<() => Promise<void>> }>();
  private pendingLeaves = new Map<NodeJS.Timeout, () => Promise<void>>();
  private work = new Set<Promise<unknown>>();
  private heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(
    private ctx: ConferenceCtx,
    private opts: HubOptions,
  ) {
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs);
    this.heartbeat.unref();
  }

  private get realtime(): Realtime {
    return this.ctx.realtime;
  }
  private get sessionTtl() {
    return this.opts.heartbeatMs * 2 + 5000;
  }

  /** Live connections of an account in a training, on any instance (0 or 1: one session rule). */
  async liveSessions(trainingId: number, userId: number): Promise<number> {
    return (await this.realtime.get(`session:${trainingId}:${userId}`)) ? 1 : 0;
  }

  accept(ws: WebSocket): void {
    const conn: Conn = {
      id: randomBytes(9).toString('base64url'),
      ws,
      alive: true,
      auth: null,
      guest: null,
      name: '',
      room: null,
      queue: Promise.resolve(),
      closed: false,
    };
    this.conns.set(conn.id, conn);
    ws.on('pong', () => {
      conn.alive = true;
      if (conn.room?.sessionKey) this.track(this.realtime.refresh(conn.room.sessionKey, conn.id, this.sessionTtl));
    });
    ws.on('message', (data, isBinary) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
      // one message at a time per connection, in order
      this.enqueue(conn, () =>
        this.onMessage(conn, data, isBinary, size).catch(() =>
          this.send(conn, { type: 'error', message: MSG.internalError }),
        ),
      );
    });
    ws.on('close', () => {
      conn.closed = true;
      this.conns.delete(conn.id);
      const dropped = new Date();
      // after the queued messages (a join in flight), leave the room; the attendance waits for the grace period
      this.enqueue(conn, () => this.leaveRoom(conn, { dropped }));
    });
    ws.on('error', () => {});
  }

  /** A message to one of this instance's connections (the sfu relay's answers). */
  sendTo(connId: string, msg: ServerMessage): void {
    const conn = this.conns.get(connId);
    if (conn) this.send(conn, msg);
  }

  /** A message to everyone in a room, on every instance. */
  async broadcast(key: string, msg: ServerMessage): Promise<void> {
    await this.publish(key, { kind: 'broadcast', msg });
  }

  private send(conn: Conn, msg: ServerMessage) {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(JSON.stringify(msg));
  }

  /** Runs `fn` after the connection's earlier work, in order; errors never break the chain. */
  private enqueue(conn: Conn, fn: () => Promise<void>): void {
    const next = conn.queue.then(fn).catch(() => {});
    conn.queue = next;
    this.track(next);
  }

  private track<T>(p: Promise<T>): void {
    const guarded = p.catch(() => {});
    this.work.add(guarded);
    void guarded.finally(() => this.work.delete(guarded));
  }

  private async onMessage(conn: Conn, data: unknown, isBinary: boolean, size: number) {
    if (conn.closed) return;
    if (size > WS_MAX_MESSAGE_BYTES) return this.send(conn, { type: 'error', message: MSG.conferenceTooLarge });
    if (isBinary) return this.send(conn, { type: 'error', message: MSG.conferenceBadMessage });
    let json: unknown;
    try {
      json = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
    } catch {
      return this.send(conn, { type: 'error', message: MSG.conferenceBadMessage });
    }
    const parsed = clientMessage.safeParse(json);
    if (!parsed.success) return this.send(conn, { type: 'error', message: MSG.conferenceBadMessage });
    const msg = parsed.data;
    if (msg.type === 'ping') return this.send(conn, { type: 'pong' });
    if (msg.type === 'auth') return this.authenticate(conn, msg);
    if (!conn.auth && !conn.guest) return this.send(conn, { type: 'error', message: MSG.conferenceAuthRequired });
    if (msg.type === 'join') return this.join(conn, msg.slug, msg.room ?? 'training');
    const room = conn.room;
    if (!room) return this.send(conn, { type: 'error', message: MSG.conferenceJoinFirst });
    const tid = room.key;
    switch (msg.type) {
      case 'leave':
        return this.leaveRoom(conn, {});
      case 'signal': {
        if (room.media === 'sfu') return this.send(conn, { type: 'error', message: MSG.conferenceWrongMedia });
        const members = await this.realtime.hgetall(`room:${tid}`);
        if (!members[msg.to] || msg.to === conn.id)
          return this.send(conn, { type: 'error', message: MSG.conferenceUnknownPeer });
        return this.publish(tid, {
          kind: 'direct',
          to: msg.to,
          msg: { type: 'signal', from: conn.id, data: msg.data },
        });
      }
      case 'chat':
        return this.publish(tid, {
          kind: 'broadcast',
          msg: { type: 'chat', from: conn.id, name: conn.name, text: msg.text, at: new Date().toISOString() },
        });
      case 'hand': {
        // kept in the room's member list too, so a late joiner sees who is waiting to speak
        room.info = { ...room.info, hand: msg.raised };
        await this.realtime.hset(`room:${tid}`, conn.id, JSON.stringify(room.info));
        return this.publish(tid, {
          kind: 'broadcast',
          msg: { type: 'hand', from: conn.id, raised: msg.raised },
          except: conn.id,
        });
      }
      case 'sfu-publish':
      case 'sfu-unpublish':
      case 'sfu-subscribe':
      case 'sfu-answer':
      case 'sfu-layer':
      case 'sfu-trickle':
        if (room.media !== 'sfu' || !this.opts.sfu)
          return this.send(conn, { type: 'error', message: MSG.conferenceWrongMedia });
        return this.opts.sfu.relay.handle(conn.id, msg satisfies SfuMessage);
      case 'mute-all':
      case 'end-all':
      case 'whiteboard':
      case 'recording':
        if (!room.info.isModerator) return this.send(conn, { type: 'error', message: MSG.conferenceModeratorOnly });
        return this.moderate(conn, room, msg);
    }
  }

  private async moderate(
    conn: Conn,
    room: NonNullable<Conn['room']>,
    msg: Extract<ClientMessage, { type: 'mute-all' | 'end-all' | 'whiteboard' | 'recording' }>,
  ) {
    const tid = room.key;
    if (msg.type === 'recording') {
      // an sfu room records on the server (when JANUS_RECORD_DIR is set); the pages are told either way
      if (room.media === 'sfu' && this.opts.sfu && room.trainingId !== null && conn.auth) {
        await this.opts.sfu.relay
          .setRecording(tid, msg.on, { trainingId: room.trainingId, userId: conn.auth.user.id })
          .catch(() => this.send(conn, { type: 'error', message: MSG.conferenceMediaUnavailable }));
      }
      return this.publish(tid, {
        kind: 'broadcast',
        msg: { type: 'recording', on: msg.on, by: conn.id },
        except: conn.id,
      });
    }
    if (msg.type === 'mute-all') {
      return this.publish(tid, {
        kind: 'broadcast',
        msg: { type: 'muted', kind: msg.kind, by: conn.id },
        except: conn.id,
      });
    }
    if (msg.type === 'whiteboard') {
      if (room.trainingId !== null) await storeWhiteboard(this.ctx.deps, room.trainingId, msg.scene);
      return this.publish(tid, {
        kind: 'broadcast',
        msg: { type: 'whiteboard', scene: msg.scene, by: conn.id },
        except: conn.id,
      });
    }
    await this.publish(tid, { kind: 'end', by: conn.id });
    // the Janus room goes with the meeting (its recording, if any, to the job)
    if (room.media === 'sfu') await this.closeSfuRoom(tid);
  }

  private async closeSfuRoom(key: string) {
    await this.opts.sfu?.relay.closeRoom(key).catch(() => {});
    await this.realtime.take(`media:${key}`);
  }

  /** The room's media: kept from when it opened, else chosen now (first instance to claim wins). */
  private async mediaOf(key: string, trainingId: number | null): Promise<RoomMedia> {
    if (!this.opts.sfu) return 'mesh';
    const kept = await this.realtime.get(`media:${key}`);
    if (kept === 'sfu' || kept === 'mesh') return kept;
    const chosen = await this.opts.sfu.choose({ key, trainingId });
    if (await this.realtime.claim(`media:${key}`, chosen, MEDIA_CHOICE_TTL_MS)) return chosen;
    return ((await this.realtime.get(`media:${key}`)) as RoomMedia | null) ?? chosen;
  }

  private async authenticate(conn: Conn, msg: Extract<ClientMessage, { type: 'auth' }>) {
    if (conn.auth || conn.guest) return this.send(conn, { type: 'error', message: MSG.conferenceBadMessage });
    if (msg.token) {
      const auth = await resolveSession(this.ctx.deps, msg.token);
      if (auth) {
        conn.auth = auth;
        conn.name = `${auth.user.first_name} ${auth.user.last_name}`.trim();
        return this.send(conn, { type: 'authed', name: conn.name, guest: false });
      }
    } else if (msg.ticket) {
      const raw = await this.realtime.take(`guest:${msg.ticket}`);
      if (raw) {
        conn.guest = JSON.parse(raw) as GuestTicket;
        conn.name = conn.guest.name;
        return this.send(conn, { type: 'authed', name: conn.name, guest: true });
      }
    }
    this.send(conn, { type: 'error', message: MSG.unauthenticated });
    conn.ws.close(4401, 'unauthenticated');
  }

  /** Where the caller may go: the room's key, whether they moderate, their enrolment (trainings only). */
  private async placeIn(conn: Conn, slug: string, kind: ConferenceRoomKind) {
    if (kind === 'take-call') {
      if (!conn.auth) return null;
      const { takeCall, moderator } = await takeCallRoomMember(this.ctx.deps, conn.auth, { slug });
      return { key: `tc-${takeCall.id}`, trainingId: null, moderator, enrolmentId: null, started: true };
    }
    const training = await trainingBy(this.ctx.deps, { slug });
    let moderator = false;
    let enrolmentId: number | null = null;
    if (conn.auth) {
      const p = await participantOf(this.ctx.deps, conn.auth, training);
      moderator = p.moderator;
      enrolmentId = p.enrolment?.id ?? null;
    } else if (conn.guest?.trainingId !== training.id || training.is_public !== 1) {
      return null;
    }
    return {
      key: String(training.id),
      training,
      trainingId: training.id,
      moderator,
      enrolmentId,
      started: training.status === 1,
    };
  }

  private async join(conn: Conn, slug: string, kind: ConferenceRoomKind) {
    if (conn.room) return this.send(conn, { type: 'error', message: MSG.conferenceBadMessage });
    let place: Awaited<ReturnType<ConferenceHub['placeIn']>>;
    try {
      place = await this.placeIn(conn, slug, kind);
    } catch {
      place = null;
    }
    if (!place) return this.send(conn, { type: 'error', message: MSG.notFound });
    const { key, moderator, enrolmentId } = place;
    if (!moderator && !place.started) return this.send(conn, { type: 'error', message: MSG.waitingForHost });
    let sessionKey: string | null = null;
    if (conn.auth) {
      sessionKey = `session:${key}:${conn.auth.user.id}`;
      if (!(await this.realtime.claim(sessionKey, conn.id, this.sessionTtl))) {
        this.send(conn, { type: 'error', message: MSG.trainingAlreadyOpen });
        conn.ws.close(4409, 'already open');
        return;
      }
    }
    if (conn.closed) {
      if (sessionKey) await this.realtime.release(sessionKey, conn.id);
      return;
    }
    if (enrolmentId !== null && conn.auth && 'training' in place) {
      await openConferenceAttendance(this.ctx.deps, place.training, { id: enrolmentId, user_id: conn.auth.user.id });
    }
    const info: PeerInfo = { id: conn.id, name: conn.name, isModerator: moderator, guest: !!conn.guest };
    const media = await this.mediaOf(key, place.trainingId);
    conn.room = { key, trainingId: place.trainingId, info, enrolmentId, sessionKey, media };
    await this.localRoom(key).unsubscribe;
    this.localRoom(key).peers.add(conn.id);
    await this.realtime.hset(`room:${key}`, conn.id, JSON.stringify(info));
    const members = await this.realtime.hgetall(`room:${key}`);
    const peers = Object.entries(members)
      .filter(([id]) => id !== conn.id)
      .map(([, v]) => JSON.parse(v) as PeerInfo);
    // fresh credentials on every join: a reconnect after a long class gets new ones
    const participant = conn.auth ? String(conn.auth.user.id) : `guest-${conn.id}`;
    const sfuHello =
      media === 'sfu' ? ((await this.opts.sfu?.relay.enter({ connId: conn.id, key, moderator })) ?? []) : [];
    this.send(conn, {
      type: 'joined',
      you: info,
      peers,
      isModerator: moderator,
      ice_servers: this.opts.iceServers(participant),
      media,
    });
    for (const msg of sfuHello) this.send(conn, msg);
    await this.publish(key, { kind: 'broadcast', msg: { type: 'peer-joined', peer: info }, except: conn.id });
  }

  private localRoom(tid: string) {
    let room = this.rooms.get(tid);
    if (!room) {
      room = {
        peers: new Set(),
        unsubscribe: this.realtime.subscribe(`room:${tid}`, (e) => this.deliver(tid, e as RoomEvent)),
      };
      this.rooms.set(tid, room);
    }
    return room;
  }

  private async publish(tid: string, event: RoomEvent) {
    await this.realtime.publish(`room:${tid}`, event);
  }

  /** An event of a room, from any instance: hand it to this instance's sockets in that room. */
  private deliver(tid: string, event: RoomEvent) {
    const room = this.rooms.get(tid);
    if (!room) return;
    for (const id of room.peers) {
      const conn = this.conns.get(id);
      if (!conn) continue;
      if (event.kind === 'direct') {
        if (event.to === id) this.send(conn, event.msg);
      } else if (event.kind === 'broadcast') {
        if (event.except !== id) this.send(conn, event.msg);
      } else {
        this.send(conn, { type: 'ended', by: event.by });
        // leave now (not after a grace period), then close the socket
        this.enqueue(conn, async () => {
          await this.leaveRoom(conn, {});
          conn.ws.close(4000, 'ended');
        });
      }
    }
  }

  /**
   * Leaves the room. Explicit (leave, end-all): attendance closes now. Dropped connection: the
   * attendance closes as of the drop after the grace period, unless the account is back by then.
   */
  private async leaveRoom(conn: Conn, opts: { dropped?: Date }) {
    const room = conn.room;
    if (!room) return;
    conn.room = null;
    const tid = room.key;
    const local = this.rooms.get(tid);
    local?.peers.delete(conn.id);
    if (room.media === 'sfu') await this.opts.sfu?.relay.left(conn.id).catch(() => {});
    await this.realtime.hdel(`room:${tid}`, conn.id);
    await this.publish(tid, { kind: 'broadcast', msg: { type: 'peer-left', id: conn.id } });
    // the last one out: the Janus room is destroyed and the next opening chooses its media again
    if (!Object.keys(await this.realtime.hgetall(`room:${tid}`)).length) {
      if (room.media === 'sfu') await this.closeSfuRoom(tid);
      else await this.realtime.take(`media:${tid}`);
    }
    if (local && !local.peers.size) {
      this.rooms.delete(tid);
      await (await local.unsubscribe)();
    }
    if (room.sessionKey) await this.realtime.release(room.sessionKey, conn.id);
    if (room.enrolmentId === null) return;
    const enrolmentId = room.enrolmentId;
    if (!opts.dropped || this.closing) {
      await closeConferenceAttendance(this.ctx.deps, enrolmentId, opts.dropped ?? new Date());
      return;
    }
    const dropped = opts.dropped;
    const finish = async () => {
      // back within the grace period (on any instance): the same attendance row runs on
      if (room.sessionKey && (await this.realtime.get(room.sessionKey))) return;
      await closeConferenceAttendance(this.ctx.deps, enrolmentId, dropped);
    };
    const timer = setTimeout(() => {
      this.pendingLeaves.delete(timer);
      this.track(finish());
    }, this.opts.graceMs);
    this.pendingLeaves.set(timer, finish);
  }

  private beat() {
    for (const conn of this.conns.values()) {
      if (!conn.alive) {
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      try {
        conn.ws.ping();
      } catch {
        /* closing */
      }
    }
  }

  /** The sfu rooms' relay when Janus is configured (metrics, tests). */
  get sfuRelay(): SfuRelay | null {
    return this.opts.sfu?.relay ?? null;
  }

  /** Open conference sockets on this instance (metrics). */
  get openConnections(): number {
    return this.conns.size;
  }

  /** Waits for queued work (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.work.size) await Promise.all([...this.work]);
  }

  /**
   * The server is shutting down: every socket is told to reconnect and closed with 1012 (Service
   * Restart) rather than dropped, so a client comes back to this address (another instance, or this
   * one restarted) and joins its room again. Attendance treats these as drops: a client back within
   * the grace period on another instance keeps its row.
   */
  restart(): void {
    for (const conn of this.conns.values()) {
      this.send(conn, { type: 'reconnect', reason: 'restart' });
      try {
        conn.ws.close(RESTART_CLOSE_CODE, 'server restart');
      } catch {
        /* already closing */
      }
    }
    // a client that never answers the close handshake does not hold the shutdown up
    const stragglers = setTimeout(() => {
      for (const conn of this.conns.values()) conn.ws.terminate();
    }, RESTART_WAIT_MS);
    stragglers.unref();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    for (const conn of this.conns.values()) conn.ws.terminate();
    await this.settle();
    // shutting down: dropped connections count as left at their drop time now
    for (const [timer, finish] of this.pendingLeaves) {
      clearTimeout(timer);
      this.track(finish());
    }
    this.pendingLeaves.clear();
    await this.settle();
  }
}
