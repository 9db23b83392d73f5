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

/** janus: the built-in conference page and rules, with media through a Janus VideoRoom (an SFU) */
export const MEETING_PROVIDERS = ['builtin', 'jitsi', 'janus'] as const;
export type MeetingProvider = (typeof MEETING_PROVIDERS)[number];

export const iceServer = z.record(z.string(), z.unknown());

export const meetingLinkResponse = z.object({
  /** the page to open (built-in and janus: /conference/{slug}; Jitsi: the room on JITSI_DOMAIN) */
  url: z.string(),
  provider: z.enum(MEETING_PROVIDERS),
  /** the room name: the training's meeting id (link) */
  room: z.string(),
  slug: z.string(),
  /** the training's name, for the pre-join screen (a take call's: its training's) */
  name: z.string(),
  /** built-in and janus: where to open the WebSocket, and the ICE servers for RTCPeerConnection */
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

// ---- media through the SFU (Janus VideoRoom), rooms whose `joined.media` is 'sfu' ----
/** what a participant publishes: one stream (audio + video) per source */
export const SFU_SOURCES = ['camera', 'screen'] as const;
export type SfuSource = (typeof SFU_SOURCES)[number];
/** the peer connection a message is about: a publisher (per source) or the one subscriber */
export const SFU_TARGETS = ['camera', 'screen', 'subscriber'] as const;
export type SfuTarget = (typeof SFU_TARGETS)[number];
/** an SDP is a few kilobytes; simulcast and many subscribed streams stay far below this */
export const SFU_SDP_MAX_LENGTH = 200_000;
const sdp = z.string().min(1).max(SFU_SDP_MAX_LENGTH);
/** simulcast layer: 0 lowest (small tiles), 2 highest (the spotlight) */
const substream = z.union([z.literal(0), z.literal(1), z.literal(2)]);
/** RTCIceCandidateInit; null = end of candidates */
export const sfuCandidate = z
  .object({
    candidate: z.string().max(2000),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(1000).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .nullable();
/** one stream the page wants: a participant's (peer id) camera or screen, optionally at a layer */
export const sfuWantedStream = z.object({ feed: peerId, source: z.enum(SFU_SOURCES), substream: substream.optional() });
/** one m-line of the subscriber connection: whose stream it carries */
export const sfuStream = z.object({
  mid: z.string(),
  feed: peerId,
  source: z.enum(SFU_SOURCES),
  kind: z.enum(['audio', 'video']),
});
export type SfuStream = z.infer<typeof sfuStream>;
/** a publisher in the room */
export const sfuFeed = z.object({ peer: peerId, source: z.enum(SFU_SOURCES), moderator: z.boolean() });
export type SfuFeed = z.infer<typeof sfuFeed>;
/** at most this many wanted streams in one sfu-subscribe (the server's video cap is usually lower) */
export const SFU_MAX_WANTED_STREAMS = 64;

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
  /** sfu rooms: publish one source with the page's offer (simulcast allowed) → sfu-answer */
  z.object({
    type: z.literal('sfu-publish'),
    source: z.enum(SFU_SOURCES),
    jsep: z.object({ type: z.literal('offer'), sdp }),
  }),
  z.object({ type: z.literal('sfu-unpublish'), source: z.enum(SFU_SOURCES) }),
  /**
   * sfu rooms: the WHOLE set of streams the page wants now (visible page, moderator, active
   * speaker); the server diffs it with the current set → sfu-offer (or nothing when unchanged)
   */
  z.object({ type: z.literal('sfu-subscribe'), streams: z.array(sfuWantedStream).max(SFU_MAX_WANTED_STREAMS) }),
  /** sfu rooms: the page's answer to the last sfu-offer */
  z.object({
    type: z.literal('sfu-answer'),
    source: z.literal('subscriber'),
    jsep: z.object({ type: z.literal('answer'), sdp }),
  }),
  /** sfu rooms: the simulcast layer of one subscribed stream */
  z.object({ type: z.literal('sfu-layer'), feed: peerId, source: z.enum(SFU_SOURCES), substream }),
  z.object({ type: z.literal('sfu-trickle'), target: z.enum(SFU_TARGETS), candidate: sfuCandidate }),
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
    /** how media flows: 'mesh' (peer to peer, `signal`) or 'sfu' (Janus, `sfu-*`); absent = mesh */
    media: z.enum(['mesh', 'sfu']).optional(),
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
  /** sfu rooms: every publisher in the room (full list), whenever it changes and after joining */
  z.object({ type: z.literal('sfu-feeds'), feeds: z.array(sfuFeed) }),
  /** sfu rooms: a participant started or stopped talking (Janus's audio levels): the active speaker */
  z.object({ type: z.literal('sfu-talking'), peer: peerId, talking: z.boolean() }),
  /** sfu rooms: the subscriber connection's (re)offer, and which stream each m-line carries */
  z.object({
    type: z.literal('sfu-offer'),
    jsep: z.object({ type: z.literal('offer'), sdp: z.string() }),
    streams: z.array(sfuStream),
  }),
  /** sfu rooms: Janus's answer to an sfu-publish */
  z.object({
    type: z.literal('sfu-answer'),
    source: z.enum(SFU_SOURCES),
    jsep: z.object({ type: z.literal('answer'), sdp: z.string() }),
  }),
  z.object({ type: z.literal('sfu-trickle'), target: z.enum(SFU_TARGETS), candidate: sfuCandidate }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
