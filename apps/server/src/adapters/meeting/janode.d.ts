/**
 * The parts of janode (it ships JavaScript without types) that adapters/meeting/janus.ts uses.
 * https://github.com/meetecho/janode — Janus's own Node.js client.
 */
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export interface JanodeConnection extends EventEmitter {
    create(keepaliveSeconds?: number): Promise<JanodeSession>;
    close(): Promise<void>;
  }
  export interface JanodeSession extends EventEmitter {
    attach<H>(plugin: { id: string; Handle: unknown }): Promise<H>;
    destroy(): Promise<void>;
  }
  const Janode: {
    connect(config: {
      address: { url: string; apisecret?: string }[];
      retry_time_secs?: number;
      max_retries?: number;
    }): Promise<JanodeConnection>;
    Logger: { setLevel(level: 'none' | 'error' | 'warning' | 'info' | 'verbose' | 'debug'): void };
    EVENT: {
      CONNECTION_CLOSED: string;
      SESSION_DESTROYED: string;
      CONNECTION_ERROR: string;
      HANDLE_DETACHED: string;
      HANDLE_TRICKLE: string;
      HANDLE_HANGUP: string;
    };
  };
  export default Janode;
}

declare module 'janode/plugins/videoroom' {
  import type { EventEmitter } from 'node:events';

  export interface Jsep {
    type: string;
    sdp: string;
  }
  /** One stream of a multistream subscription (Janus 1.x). */
  export interface JanusSubStream {
    type: 'audio' | 'video' | 'data';
    mid: string;
    active?: boolean;
    feed_id?: number | string;
    feed_display?: string;
    feed_mid?: string;
  }
  export interface VideoRoomHandle extends EventEmitter {
    feed: number | string | null;
    detach(): Promise<void>;
    trickle(candidate: unknown): Promise<void>;
    trickleComplete(): Promise<void>;
    message(body: Record<string, unknown>, jsep?: Jsep): Promise<unknown>;
    create(p: Record<string, unknown>): Promise<{ room: number | string }>;
    destroy(p: { room: number | string; secret?: string; permanent?: boolean }): Promise<unknown>;
    exists(p: { room: number | string }): Promise<{ exists: boolean }>;
    list(p?: { admin_key?: string }): Promise<{ list: { room: number | string }[] }>;
    listParticipants(p: {
      room: number | string;
      secret?: string;
    }): Promise<{ participants: { feed: number | string; display?: string; publisher: boolean }[] }>;
    enable_recording(p: { room: number | string; secret?: string; record: boolean }): Promise<unknown>;
    joinConfigurePublisher(
      p: Record<string, unknown> & { jsep: Jsep },
    ): Promise<{ feed: number | string; jsep?: Jsep }>;
    configure(p: Record<string, unknown>): Promise<{ jsep?: Jsep }>;
    joinSubscriber(p: Record<string, unknown>): Promise<{ jsep?: Jsep; streams?: JanusSubStream[] }>;
    update(p: {
      subscribe?: Record<string, unknown>[];
      unsubscribe?: Record<string, unknown>[];
    }): Promise<{ jsep?: Jsep; streams?: JanusSubStream[] }>;
    start(p: { jsep: Jsep }): Promise<unknown>;
    leave(): Promise<unknown>;
  }
  const VideoRoomPlugin: {
    id: string;
    Handle: unknown;
    EVENT: {
      VIDEOROOM_TALKING: string;
      VIDEOROOM_UPDATED: string;
      VIDEOROOM_PUB_LIST: string;
      VIDEOROOM_UNPUBLISHED: string;
      VIDEOROOM_LEAVING: string;
      VIDEOROOM_DESTROYED: string;
    };
  };
  export default VideoRoomPlugin;
}
