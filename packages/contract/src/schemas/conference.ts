import { z } from 'zod';
import { flag, idField, requiredText } from '../validation.js';

/**
 * Live conference (spec 01 §2 /conference, §4, §6, §7; spec 02 §4, §7): HTTP calls and the
 * WebSocket protocol of /ws/conference (docs/conference-protocol.md). The web client imports the
 * message schemas from here.
 */

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** What a conference room belongs to: a training, or a take call (its manager side and invited trainers). */
export const CONFERENCE_ROOM_KINDS = ['training', 'take-call'] as const;
export type ConferenceRoomKind = (typeof CONFERENCE_ROOM_KINDS)[number];

/** /get-take-call-meeting-link: the take call's id. */
export const takeCallMeetingRequest = z.object({ id: idField() });

/** /get-meeting-link: by slug, or by id (a number or its base64 form as in /training/start/{id}). */
export const meetingLinkRequest = z
  .object({
    slug: z.preprocess(blank, requiredText(200).optional()),
    id: z.preprocess(blank, z.union([z.number().int().positive(), z.string().trim().min(1).max(100)]).optional()),
    /** a moderator's "Yes" on 'Are you sure want to start Training?': sets the training status to 1 */
    start: flag().optional().default(false),
  })
  .refine((b) => b.slug !== undefined || b.id !== undefined, {
    path: ['slug'],
    message: 'The slug field is required when id is not present.',
  });

export const MEETING_PROVIDERS = ['builtin', 'jitsi'] as const;
export type MeetingProvider = (typeof MEETING_PROVIDERS)[number];

export const iceServer = z.record(z.string(), z.unknown());

export const meetingLinkResponse = z.object({
  /** the page to open (built-in: /conference/{slug}; Jitsi: the room on JITSI_DOMAIN) */
  url: z.string(),
  provider: z.enum(MEETING_PROVIDERS),
  /** the room name: the training's meeting id (link) */
  room: z.string(),
  slug: z.string(),
  /** the training's name, for the pre-join screen (a take call's: its training's) */
  name: z.string(),
  /** built-in only: where to open the WebSocket, and the ICE servers for RTCPeerConnection */
  ws_url: z.string().optional(),
  ice_servers: z.array(iceServer).optional(),
  /** Jitsi only: the domain whose external_api.js to load, and the participant's JWT when configured */
  domain: z.string().optional(),
  jwt: z.string().optional(),
  isModerator: z.number(),
  /** 0 not started (learners and guests wait), 1 started, 2 completed */
  status: z.number(),
});

export const meetingIdRequest = z.object({ meeting_id: requiredText(200) });
export const meetingStatusResponse = z.object({ status: z.number() });

export const meetingUrlRequest = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  meeting_id: requiredText(200),
});
export const meetingUrlResponse = meetingLinkResponse.omit({ isModerator: true }).extend({
  /** short-lived guest ticket: send it in the WebSocket auth message */
  ticket: z.string(),
  expires_in: z.number(),
});

export const endMeetingRequest = z
  .object({
    slug: z.preprocess(blank, requiredText(200).optional()),
    id: z.preprocess(blank, z.union([z.number().int().positive(), z.string().trim().min(1).max(100)]).optional()),
  })
  .refine((b) => b.slug !== undefined || b.id !== undefined, {
    path: ['slug'],
    message: 'The slug field is required when id is not present.',
  });
export const endMeetingResponse = z.object({ message: z.string(), closed: z.number() });

/** Whiteboard scenes are opaque JSON (e.g. an Excalidraw scene), at most this many bytes serialized. */
export const WHITEBOARD_MAX_BYTES = 512 * 1024;
export const whiteboardScene = z
  .record(z.string(), z.unknown())
  .refine((s) => JSON.stringify(s).length <= WHITEBOARD_MAX_BYTES, 'The scene may not be greater than 512 kilobytes.');

export const whiteboardSlugRequest = z.object({ slug: requiredText(200) });
export const whiteboardResponse = z.object({
  success: z.object({ scene: z.record(z.string(), z.unknown()).nullable(), updated_at: z.string().nullable() }),
});
export const saveWhiteboardRequest = z.object({ slug: requiredText(200), scene: whiteboardScene });
export const saveWhiteboardResponse = z.object({ message: z.string() });

// ---- WebSocket protocol (/ws/conference) ----------------------------------------------------------

export const WS_MAX_MESSAGE_BYTES = 600 * 1024;
export const CHAT_MAX_LENGTH = 2000;

const peerId = z.string().min(1).max(64);

/** Client → server. The first message must be `auth`. */
export const clientMessage = z.discriminatedUnion('type', [
  /** a bearer token (signed-in account) or a guest ticket from /get-meeting-url */
  z.object({
    type: z.literal('auth'),
    token: z.string().min(1).max(500).optional(),
    ticket: z.string().min(1).max(500).optional(),
  }),
  /** `room`: a training's room (the default) or a take call's meeting room, by the take call's slug */
  z.object({
    type: z.literal('join'),
    slug: z.string().min(1).max(200),
    room: z.enum(CONFERENCE_ROOM_KINDS).optional(),
  }),
  z.object({ type: z.literal('leave') }),
  z.object({ type: z.literal('signal'), to: peerId, data: z.unknown() }),
  z.object({ type: z.literal('chat'), text: z.string().trim().min(1).max(CHAT_MAX_LENGTH) }),
  z.object({ type: z.literal('mute-all'), kind: z.enum(['audio', 'video']) }),
  z.object({ type: z.literal('end-all') }),
  z.object({ type: z.literal('whiteboard'), scene: whiteboardScene }),
  /** raise or lower one's own hand */
  z.object({ type: z.literal('hand'), raised: z.boolean() }),
  /** a moderator's recording started or stopped (the recorder runs in the moderator's browser) */
  z.object({ type: z.literal('recording'), on: z.boolean() }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

export const peerInfo = z.object({
  id: peerId,
  name: z.string(),
  isModerator: z.boolean(),
  guest: z.boolean(),
  /** the hand is raised (kept in the room, so a late joiner sees it) */
  hand: z.boolean().optional(),
});
export type PeerInfo = z.infer<typeof peerInfo>;

/** Server → client. */
export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authed'), name: z.string(), guest: z.boolean() }),
  z.object({
    type: z.literal('joined'),
    you: peerInfo,
    peers: z.array(peerInfo),
    isModerator: z.boolean(),
    ice_servers: z.array(iceServer),
  }),
  z.object({ type: z.literal('peer-joined'), peer: peerInfo }),
  z.object({ type: z.literal('peer-left'), id: peerId }),
  z.object({ type: z.literal('signal'), from: peerId, data: z.unknown() }),
  z.object({ type: z.literal('chat'), from: peerId, name: z.string(), text: z.string(), at: z.string() }),
  z.object({ type: z.literal('muted'), kind: z.enum(['audio', 'video']), by: peerId }),
  z.object({ type: z.literal('ended'), by: peerId }),
  z.object({ type: z.literal('whiteboard'), scene: z.record(z.string(), z.unknown()), by: peerId }),
  z.object({ type: z.literal('hand'), from: peerId, raised: z.boolean() }),
  z.object({ type: z.literal('recording'), on: z.boolean(), by: peerId }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), message: z.string() }),
  /** the server is shutting down: connect again (to the same address) and join the same room */
  z.object({ type: z.literal('reconnect'), reason: z.literal('restart') }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
