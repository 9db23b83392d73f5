/// <reference path="./janode.d.ts" />
import { EventEmitter } from 'node:events';
import type { JanodeConnection, JanodeSession } from 'janode';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';

export type { JanusSubStream, Jsep, VideoRoomHandle } from 'janode/plugins/videoroom';

/**
 * The janode event names we listen for, written out so that janode itself loads with the first
 * connection to Janus rather than at start (test/startup-modules.test.ts holds them to janode's).
 */
export const VIDEOROOM_EVENT = {
  VIDEOROOM_TALKING: 'videoroom_talking',
  VIDEOROOM_UPDATED: 'videoroom_updated',
} as const;
export const JANODE_EVENT = {
  CONNECTION_CLOSED: 'connection_closed',
  CONNECTION_ERROR: 'connection_error',
  SESSION_DESTROYED: 'session_destroyed',
  HANDLE_TRICKLE: 'handle_trickle',
} as const;

let janodeLib:
  | Promise<{
      Janode: typeof import('janode').default;
      VideoRoomPlugin: typeof import('janode/plugins/videoroom').default;
    }>
  | undefined;
function janode() {
  janodeLib ??= Promise.all([import('janode'), import('janode/plugins/videoroom')]).then(([j, v]) => {
    // janode logs to the console on its own (and at 'verbose' its configuration, api secret included)
    j.default.Logger.setLevel('none');
    return { Janode: j.default, VideoRoomPlugin: v.default };
  });
  return janodeLib;
}

/**
 * Our server's line to Janus (docs/decisions/0028-janus-engine.md): ONE WebSocket connection and ONE
 * Janus session per server instance, shared by every room; each participant gets VideoRoom handles
 * on it (a publisher per source, one multistream subscriber), and one more handle does the room
 * management (create, destroy, recording). Browsers never reach this API.
 *
 * When the connection or the session is lost (Janus restarted, network), every handle on it is gone:
 * 'lost' is emitted so the rooms forget them, and the next call connects again. Janus's rooms do not
 * survive a Janus restart either; the relay recreates a room when it is next used.
 */
export interface JanusEngineOptions {
  url: string;
  /** the VideoRoom admin_key */
  adminKey: string;
  /** Janus's core api_secret */
  apiSecret?: string;
  /** how many publishers a room may hold (cameras and screens) */
  maxPublishers?: number;
}

export interface JanusRoomOptions {
  secret: string;
  /** the folder the room records into (Janus creates it) */
  recDir?: string;
}

export interface JanusPublisher {
  feed: number | string;
  display: string;
}

interface Line {
  connection: JanodeConnection;
  session: JanodeSession;
  manager: VideoRoomHandle;
}

export class JanusUnavailable extends Error {}

export class JanusEngine extends EventEmitter<{ lost: [] }> {
  private line: Line | null = null;
  private opening: Promise<Line> | null = null;
  private closed = false;

  constructor(private opts: JanusEngineOptions) {
    super();
  }

  /** The live line to Janus, connecting (again) when there is none. */
  private async ready(): Promise<Line> {
    if (this.closed) throw new JanusUnavailable('closed');
    if (this.line) return this.line;
    this.opening ??= this.open().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private async open(): Promise<Line> {
    let connection: JanodeConnection | undefined;
    try {
      const { Janode, VideoRoomPlugin } = await janode();
      connection = await Janode.connect({
        address: [{ url: this.opts.url, ...(this.opts.apiSecret ? { apisecret: this.opts.apiSecret } : {}) }],
        // one attempt per call: the caller answers 'not reachable' and the next call tries again
        retry_time_secs: 1,
        max_retries: 0,
      });
      const session = await connection.create(25);
      const manager = await session.attach<VideoRoomHandle>(VideoRoomPlugin);
      const line: Line = { connection, session, manager };
      const drop = () => this.drop(line);
      connection.once(JANODE_EVENT.CONNECTION_CLOSED, drop);
      connection.once(JANODE_EVENT.CONNECTION_ERROR, drop);
      session.once(JANODE_EVENT.SESSION_DESTROYED, drop);
      if (this.closed) {
        await connection.close().catch(() => {});
        throw new JanusUnavailable('closed');
      }
      this.line = line;
      return line;
    } catch (e) {
      await connection?.close().catch(() => {});
      if (e instanceof JanusUnavailable) throw e;
      // janode's messages carry no secret, but keep only the gist
      throw new JanusUnavailable(`Janus is not reachable: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private drop(line: Line) {
    if (this.line !== line) return;
    this.line = null;
    line.connection.close().catch(() => {});
    this.emit('lost');
  }

  /** A new VideoRoom handle on the shared session. */
  async attach(): Promise<VideoRoomHandle> {
    const { session } = await this.ready();
    return session.attach<VideoRoomHandle>((await janode()).VideoRoomPlugin);
  }

  /**
   * Creates a room: private (not listed), with a secret only our server knows, audio-level events
   * (the active speaker) and VP8 + Opus, the codecs every browser simulcasts.
   */
  async createRoom(room: number, opts: JanusRoomOptions): Promise<void> {
    const { manager } = await this.ready();
    await manager.create({
      room,
      description: `trainlab-${room}`,
      max_publishers: this.opts.maxPublishers ?? 200,
      permanent: false,
      is_private: true,
      secret: opts.secret,
      admin_key: this.opts.adminKey,
      audiocodec: 'opus',
      videocodec: 'vp8',
      // per stream; simulcast layers share it (the top layer gets most)
      bitrate: 1_500_000,
      fir_freq: 10,
      talking_events: true,
      talking_level_threshold: 40,
      talking_packets_threshold: 50,
      notify_joining: false,
      record: false,
      ...(opts.recDir ? { rec_dir: opts.recDir } : {}),
    });
  }

  async destroyRoom(room: number, secret: string): Promise<void> {
    const { manager } = await this.ready();
    await manager.destroy({ room, secret });
  }

  async roomExists(room: number): Promise<boolean> {
    const { manager } = await this.ready();
    return (await manager.exists({ room })).exists;
  }

  /** Every room of this Janus (private ones too: the admin key shows them). */
  async listRooms(): Promise<(number | string)[]> {
    const { manager } = await this.ready();
    return (await manager.list({ admin_key: this.opts.adminKey })).list.map((r) => r.room);
  }

  /** The room's publishers (participants with media), by Janus feed id and display. */
  async publishers(room: number, secret: string): Promise<JanusPublisher[]> {
    const { manager } = await this.ready();
    const { participants } = await manager.listParticipants({ room, secret });
    return participants.filter((p) => p.publisher).map((p) => ({ feed: p.feed, display: p.display ?? '' }));
  }

  /**
   * Turns the room's recording on or off: every publisher, current and later, records into the
   * room's folder. `recDir` (on) first points the room at a fresh folder, so each recording is the
   * files of one folder.
   */
  async setRecording(room: number, secret: string, on: boolean, recDir?: string): Promise<void> {
    const { manager } = await this.ready();
    if (on && recDir) await manager.message({ request: 'edit', room, secret, new_rec_dir: recDir });
    await manager.enable_recording({ room, secret, record: on });
  }

  async close(): Promise<void> {
    this.closed = true;
    const line = this.line ?? (await this.opening?.catch(() => null)) ?? null;
    this.line = null;
    if (!line) return;
    await line.session.destroy().catch(() => {});
    await line.connection.close().catch(() => {});
  }
}
