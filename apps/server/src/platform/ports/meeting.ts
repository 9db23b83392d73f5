/**
 * The meeting port (architecture: 'live conference'): how a participant joins a room. adapters/meeting
 * implements it (builtin, janus, jitsi); the composition root (bootstrap.ts) picks one as Deps.meeting.
 */
export interface MeetingParticipant {
  id: string;
  name: string;
  email?: string;
  moderator: boolean;
}
export interface MeetingRoom {
  slug: string;
  room: string;
}
export interface MeetingJoin {
  url: string;
  provider: 'builtin' | 'jitsi' | 'janus';
  room: string;
  ws_url?: string;
  ice_servers?: Record<string, unknown>[];
  domain?: string;
  jwt?: string;
}

export interface MeetingProvider {
  readonly name: 'builtin' | 'jitsi' | 'janus';
  join(room: MeetingRoom, who: MeetingParticipant, opts: { guestPage?: boolean }): Promise<MeetingJoin>;
}
