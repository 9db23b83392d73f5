import {
  API,
  COURSE_UPLOAD_PATH,
  COURSE_UPLOAD_ROLES,
  clientMessage,
  type Role,
  serverMessage,
  WS_MAX_MESSAGE_BYTES,
} from '@trainlab/contract';
import type { z } from 'zod';

/**
 * The endpoints that are not `POST /api/<path>` calls of the contract's permission table: operations,
 * signed media, the tus upload protocol, identity-provider and payment-gateway callbacks, WebSockets.
 * Their handlers speak HTTP directly, so nothing generates their OpenAPI entries: this table is their
 * one declaration, and a test fails when the server registers a route that is neither a call nor here.
 * Every plain GET also answers HEAD (same status and headers, no body), as Fastify adds it.
 */

export type Method = 'get' | 'head' | 'post' | 'patch' | 'delete';

/** Who may call, in words for the reference page, and as an OpenAPI security requirement. */
export interface Access {
  who: string;
  /** alternatives, as in OpenAPI: `[]` needs no credential header, `{}` inside means "or none" */
  security: Record<string, string[]>[];
}

/** A request header or query parameter: its meaning, and whether it must be sent. */
export type Field = string | { description: string; required: true };

export interface Answer {
  description: string;
  /** the media type of the body (none: no body) */
  type?: string;
  /** response headers that matter to the client */
  headers?: Record<string, string>;
  /** JSON Schema of the body, or a zod schema converted when the document is built */
  schema?: Record<string, unknown> | z.ZodType;
}

export interface Operation {
  summary: string;
  access: Access;
  /** path parameters, by the name between braces */
  params?: Record<string, string>;
  query?: Record<string, Field>;
  headers?: Record<string, Field>;
  body?: { type: string | readonly string[]; description: string; schema?: Record<string, unknown> };
  responses: Record<number, Answer>;
  /** the route exists only under this condition of configuration */
  only?: string;
  /** a WebSocket: what travels over it once upgraded */
  websocket?: {
    subprotocols: string;
    messages: string;
    closeCodes: Record<number, string>;
    client?: z.ZodType;
    server?: z.ZodType;
  };
}

export interface OtherEndpoint {
  /** OpenAPI form: `/api/course-media/{token}/{file}` */
  path: string;
  methods: Partial<Record<Method, Operation>>;
}

/** Security schemes beside the session bearer token (components.securitySchemes). */
export const OTHER_SECURITY_SCHEMES = {
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The configured METRICS_TOKEN (not a session token).',
  },
  backupToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Backup-Token',
    description: 'The token the running server wrote to DATA_DIR/backup.token.',
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Razorpay-Signature',
    description: "HMAC-SHA256 (hex) of the raw body with the gateway's webhook secret.",
  },
} as const;

const must = (description: string) => ({ description, required: true as const });

const anyone = (note?: string): Access => ({ who: note ? `Public: ${note}` : 'Public', security: [] });
const signed = (who: string): Access => ({ who, security: [] });
const roles = (list: readonly Role[], extra = '') => `Roles: ${list.join(', ')}${extra}`;

/** The body of an answer in words; a refusal's (status 400 and up) is documented with its code too. */
export const MESSAGE_BODY = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
const json = (description: string, schema?: Record<string, unknown>): Answer => ({
  description,
  type: 'application/json',
  schema: schema ?? MESSAGE_BODY,
});
const redirect = (description: string): Answer => ({ description, headers: { Location: description } });

const RANGE = 'A single `bytes=start-end` (or `bytes=-suffix`) range; other forms get the whole file.';
const rangeAnswers = (type: string): Record<number, Answer> => ({
  200: {
    description: 'The whole file.',
    type,
    headers: { 'Accept-Ranges': 'bytes', 'Content-Length': 'the file size' },
  },
  206: {
    description: 'Partial content: the requested byte range.',
    type,
    headers: {
      'Content-Range': 'bytes start-end/size',
      'Content-Length': 'the range length',
      'Accept-Ranges': 'bytes',
    },
  },
  416: {
    ...json('Range Not Satisfiable.'),
    headers: { 'Content-Range': 'bytes */size' },
  },
});

const TUS_HEADERS = { 'Tus-Resumable': must('1.0.0 (412 without it).') };
const TUS_ERRORS: Record<number, Answer> = {
  401: json('Unauthenticated.'),
  403: json('The account may not upload course videos.'),
  404: json('No such upload of the caller.'),
  412: { description: 'Tus-Resumable missing or not 1.0.0.', type: 'text/plain' },
};
const uploaderOnly = roles(COURSE_UPLOAD_ROLES, '; only the account that created the upload');
const UPLOAD_ID = 'The upload id: the last part of the Location answered on creation (32 hex digits).';

const LAB_CLOSE_CODES = {
  4401: 'no live session in the auth.<token> subprotocol',
  4404: 'no such lab, or not the caller’s',
  4409: 'the lab is not started',
  4503: 'the lab engine (or the gateway) cannot reach the lab',
  1011: 'server error',
};
const labAccess = (extra = ''): Access => ({
  who: `Bearer session token sent as the WebSocket subprotocol auth.<token>: the learner the lab is assigned to, or a manager of the lab’s tenant${extra}`,
  security: [],
});
const LAB_NAME = { name: 'The lab’s vm_name.' };
const upgrade = (protocols?: string): Record<string, Field> => ({
  Upgrade: must('websocket'),
  Connection: must('Upgrade'),
  ...(protocols ? { 'Sec-WebSocket-Protocol': must(protocols) } : {}),
});
const switching = (protocol?: string): Answer => ({
  description: `Switching Protocols: the WebSocket is open${protocol ? ` (Sec-WebSocket-Protocol: ${protocol})` : ''}.`,
  headers: { Upgrade: 'websocket', ...(protocol ? { 'Sec-WebSocket-Protocol': protocol } : {}) },
});
const NO_UPGRADE: Answer = { description: 'A request without the WebSocket upgrade.' };

const SSO_SLUG = { slug: 'The organization’s slug.' };
const SSO_DONE =
  'See Other: to the web page /sso/complete?code=… (a one-time code for /sso-exchange), or ?error=<reason>.';

export const OTHER_ENDPOINTS: readonly OtherEndpoint[] = [
  // operations
  {
    path: '/api/health',
    methods: {
      get: {
        summary:
          'Liveness: answers when the database answers, with the state of video processing, labs and RDP, and the payment gateway in use.',
        access: anyone(),
        responses: {
          200: json(
            'ok, with `video`, `labs` ({engine, ready, problem?, isolation?: {disk: capped|uncapped, userns, seccomp}}) and `rdp` states and `payments` (test or razorpay).',
            {
              type: 'object',
              properties: {
                status: { const: 'ok' },
                video: { type: 'string' },
                labs: { type: 'object' },
                rdp: { type: 'string' },
                payments: { enum: ['test', 'razorpay'] },
              },
            },
          ),
          503: json('The database does not answer: {"status":"unavailable"}.', {
            type: 'object',
            properties: { status: { const: 'unavailable' } },
          }),
        },
      },
    },
  },
  {
    path: '/api/live',
    methods: {
      get: {
        summary:
          'Liveness of the process alone: 200 while it runs, also while the database is down or awaited at start-up.',
        access: anyone(),
        responses: {
          200: json('{"status":"alive"}.', { type: 'object', properties: { status: { const: 'alive' } } }),
        },
      },
    },
  },
  {
    path: '/api/ready',
    methods: {
      get: {
        summary: 'Readiness: the database and, when configured, Redis answer within 2 s.',
        access: anyone(),
        responses: {
          200: json('{"status":"ready","database":"ok","redis":"ok"} (redis only when REDIS_URL is set).', {
            type: 'object',
            properties: { status: { const: 'ready' }, database: { type: 'string' }, redis: { type: 'string' } },
          }),
          503: json(
            'A dependency does not answer (status "unavailable" and "unavailable" on the failed check), or the server is still waiting for the database at start-up (status "starting"); with Retry-After.',
            {
              type: 'object',
              properties: {
                status: { enum: ['unavailable', 'starting'] },
                database: { type: 'string' },
                redis: { type: 'string' },
              },
            },
          ),
        },
      },
    },
  },
  {
    path: '/metrics',
    methods: {
      get: {
        summary:
          'Prometheus metrics: requests by route and status, latency, database pool, job queue, open conference sockets.',
        access: { who: 'Authorization: Bearer METRICS_TOKEN', security: [{ metricsToken: [] }] },
        headers: { Authorization: must('Bearer <METRICS_TOKEN>') },
        responses: {
          200: { description: 'The metrics in the Prometheus text format.', type: 'text/plain; version=0.0.4' },
          401: json('Unauthenticated.'),
          404: json('Not Found: metrics are off (METRICS_TOKEN unset).'),
        },
      },
    },
  },
  {
    path: '/internal/backup',
    methods: {
      post: {
        summary:
          'Writes a backup of the embedded database and the stored files and sends it (used by `npm run backup`).',
        access: {
          who: 'This machine only (loopback, not through a proxy), with the token the server wrote to DATA_DIR',
          security: [{ backupToken: [] }],
        },
        only: 'On the embedded database (PGlite) only.',
        headers: { 'X-Backup-Token': must('The content of DATA_DIR/backup.token.') },
        responses: {
          200: { description: 'The backup archive.', type: 'application/gzip' },
          404: json('Not Found: not asked from this machine, or a wrong token.'),
        },
      },
    },
  },
  {
    path: '/api/openapi.json',
    methods: {
      get: {
        summary: 'This OpenAPI 3.1 document.',
        access: anyone(),
        responses: { 200: { description: 'The document.', type: 'application/json' } },
      },
    },
  },
  {
    path: '/api/docs',
    methods: {
      get: {
        summary: 'The readable API reference page, rendered from this document.',
        access: anyone(),
        responses: { 200: { description: 'The page.', type: 'text/html' } },
      },
    },
  },

  // media
  {
    path: '/api/recording-file/{id}',
    methods: {
      get: {
        summary: 'A meeting recording’s file for <video>/<audio> elements, with byte ranges.',
        access: {
          who: `${roles(API.getRecording.access as readonly Role[])} who may see the training, by bearer token or by the signed ?t= token from /get-recording`,
          security: [{ bearer: [] }, {}],
        },
        params: { id: 'The recording id.' },
        query: { t: 'The short-lived signed token from /get-recording (instead of a bearer token).' },
        headers: { Range: RANGE },
        responses: {
          ...rangeAnswers('audio/webm, video/webm, audio/ogg or audio/flac (the recording’s type)'),
          401: json('Unauthenticated: no bearer token and no valid ?t= token.'),
          403: json('The account’s role may not see recordings.'),
          404: json('Recording Not Available: unknown, not ready, or of a training the caller may not see.'),
        },
      },
    },
  },
  {
    path: '/api/course-media/{token}/{file}',
    methods: {
      get: {
        summary: 'One file of a recorded course topic’s HLS package (playlists, segments, poster) or its captions.',
        access: signed(
          'Signed token in the path, issued by /play-course-data to someone who may play the topic (the playlists’ relative URLs carry it)',
        ),
        params: {
          token: 'The short-lived signed playback token of the topic.',
          file: 'A file name of the package: master.m3u8, <height>p.m3u8, segments (.ts), poster.jpg, captions-<language>.vtt.',
        },
        headers: { Range: RANGE },
        responses: {
          ...rangeAnswers(
            'application/vnd.apple.mpegurl (.m3u8), video/mp2t (.ts), image/jpeg (.jpg), text/vtt (.vtt)',
          ),
          302: redirect(
            'With an S3 file store: segments and the poster redirect to a presigned URL (rendition playlists are answered 200 with presigned segment URLs).',
          ),
          401: json('Unauthenticated: the token is malformed, forged or expired.'),
          404: json('Not Found: no such file in the topic’s package, or the account is inactive.'),
        },
      },
    },
  },

  // tus resumable uploads of course videos
  {
    path: `/api/${COURSE_UPLOAD_PATH}`,
    methods: {
      post: {
        summary:
          'tus 1.0.0 creation: starts a resumable course video upload (creation-with-upload may carry the first bytes).',
        access: { who: roles(COURSE_UPLOAD_ROLES), security: [{ bearer: [] }] },
        headers: {
          ...TUS_HEADERS,
          'Upload-Length': must(
            'The total size in bytes (deferred length is refused); at most COURSE_VIDEO_MAX_BYTES.',
          ),
          'Upload-Metadata': 'Comma-separated `key base64(value)` pairs, e.g. filename and filetype.',
        },
        body: {
          type: 'application/offset+octet-stream',
          description: 'Optional: the first bytes of the video (creation-with-upload).',
        },
        responses: {
          201: {
            description: 'Created.',
            headers: {
              Location: `/api/${COURSE_UPLOAD_PATH}/{id}`,
              'Upload-Expires': 'when the unfinished upload is removed',
              'Tus-Resumable': '1.0.0',
            },
          },
          400: { description: 'Upload-Length or Upload-Metadata missing or invalid.', type: 'text/plain' },
          ...TUS_ERRORS,
          422: json('{"course_url":[…]}: empty, larger than the limit, or (once complete) not a readable video.', {
            type: 'object',
            properties: { course_url: { type: 'array', items: { type: 'string' } } },
          }),
        },
      },
    },
  },
  {
    path: `/api/${COURSE_UPLOAD_PATH}/{id}`,
    methods: {
      head: {
        summary: 'tus: how many bytes of the upload the server holds, to resume from there.',
        access: { who: uploaderOnly, security: [{ bearer: [] }] },
        params: { id: UPLOAD_ID },
        headers: TUS_HEADERS,
        responses: {
          200: {
            description: 'The upload’s state.',
            headers: {
              'Upload-Offset': 'the bytes received',
              'Upload-Length': 'the declared size',
              'Upload-Metadata': 'as sent on creation',
              'Cache-Control': 'no-store',
            },
          },
          ...TUS_ERRORS,
          410: { description: 'Gone: the upload expired.', type: 'text/plain' },
        },
      },
      patch: {
        summary:
          'tus: appends bytes at Upload-Offset; the last piece completes the upload, checked to be a video (ffprobe).',
        access: { who: uploaderOnly, security: [{ bearer: [] }] },
        params: { id: UPLOAD_ID },
        headers: {
          ...TUS_HEADERS,
          'Upload-Offset': must('The offset the bytes start at: the Upload-Offset the server holds.'),
          'Content-Type': must('application/offset+octet-stream'),
        },
        body: { type: 'application/offset+octet-stream', description: 'The next bytes of the video.' },
        responses: {
          204: {
            description: 'No Content: the bytes are stored.',
            headers: { 'Upload-Offset': 'the new offset', 'Upload-Expires': 'when an unfinished upload is removed' },
          },
          ...TUS_ERRORS,
          409: { description: 'Conflict: Upload-Offset is not the stored offset.', type: 'text/plain' },
          410: { description: 'Gone: the upload expired.', type: 'text/plain' },
          415: { description: 'Content-Type is not application/offset+octet-stream.', type: 'text/plain' },
          422: json('{"course_url":[…]}: the completed file is not a readable video (it is removed), or too large.', {
            type: 'object',
            properties: { course_url: { type: 'array', items: { type: 'string' } } },
          }),
        },
      },
      delete: {
        summary: 'tus termination: cancels the upload and removes its bytes.',
        access: { who: uploaderOnly, security: [{ bearer: [] }] },
        params: { id: UPLOAD_ID },
        headers: TUS_HEADERS,
        responses: { 204: { description: 'No Content: removed.' }, ...TUS_ERRORS },
      },
    },
  },

  // single sign-on: the identity provider's browser navigations (docs/sso.md)
  {
    path: '/sso/saml/{slug}/metadata',
    methods: {
      get: {
        summary: 'Our SAML service provider metadata for the organization’s identity provider.',
        access: anyone(),
        params: SSO_SLUG,
        responses: {
          200: { description: 'The metadata (entity id, ACS and SLO URLs).', type: 'application/samlmetadata+xml' },
          404: { description: 'No single sign-on is configured for this organization.', type: 'text/plain' },
        },
      },
    },
  },
  {
    path: '/sso/saml/{slug}/acs',
    methods: {
      post: {
        summary: 'SAML assertion consumer (HTTP-POST binding): signs the person in and ends on the web app.',
        access: anyone('the SAML response must be signed by the organization’s identity provider'),
        params: SSO_SLUG,
        body: {
          type: 'application/x-www-form-urlencoded',
          description: 'SAMLResponse (base64) and RelayState.',
          schema: {
            type: 'object',
            properties: { SAMLResponse: { type: 'string' }, RelayState: { type: 'string' } },
            required: ['SAMLResponse'],
          },
        },
        responses: { 303: redirect(SSO_DONE) },
      },
    },
  },
  {
    path: '/sso/saml/{slug}/slo',
    methods: {
      get: {
        summary:
          'SAML single logout started by the identity provider (HTTP-Redirect binding): ends the person’s sessions.',
        access: anyone('the logout request must be signed by the organization’s identity provider'),
        params: SSO_SLUG,
        query: {
          SAMLRequest: 'The logout request (deflated, base64).',
          SAMLResponse: 'Or the logout response to one of ours.',
          RelayState: 'Sent back with our answer.',
          SigAlg: 'The signature algorithm.',
          Signature: 'The identity provider’s signature of the query.',
        },
        responses: {
          303: redirect(
            'See Other: to the identity provider with our logout response, or to /login; on a refusal to /sso/complete?error=<reason>.',
          ),
        },
      },
      post: {
        summary:
          'SAML single logout (HTTP-POST binding): a logout request from the identity provider, or its response.',
        access: anyone('the message must be signed by the organization’s identity provider'),
        params: SSO_SLUG,
        body: {
          type: 'application/x-www-form-urlencoded',
          description: 'SAMLRequest or SAMLResponse (base64), and RelayState.',
          schema: {
            type: 'object',
            properties: {
              SAMLRequest: { type: 'string' },
              SAMLResponse: { type: 'string' },
              RelayState: { type: 'string' },
            },
          },
        },
        responses: {
          303: redirect(
            'See Other: to the identity provider with our logout response, or to /login; on a refusal to /sso/complete?error=<reason>.',
          ),
        },
      },
    },
  },
  {
    path: '/sso/oidc/{slug}/callback',
    methods: {
      get: {
        summary:
          'OpenID Connect redirect URI: exchanges the code (PKCE, state, nonce checked) and ends on the web app.',
        access: anyone('the state must be one this server issued when /login started the sign-in'),
        params: SSO_SLUG,
        query: {
          code: 'The authorization code.',
          state: must('The state issued at the start.'),
          error: 'The provider’s refusal.',
          error_description: 'The refusal’s explanation.',
        },
        responses: { 303: redirect(SSO_DONE) },
      },
    },
  },

  // payment gateway
  {
    path: '/webhooks/payments/{gateway}',
    methods: {
      post: {
        summary:
          'Payment gateway webhook: payment.captured, order.paid, payment.failed and refunds, each event handled once and in any order.',
        access: { who: 'The gateway, by the signature over the raw body', security: [{ webhookSignature: [] }] },
        params: { gateway: 'The configured gateway: razorpay, or test (the embedded test gateway).' },
        headers: {
          'X-Razorpay-Signature': must('HMAC-SHA256 (hex) of the raw body with the webhook secret.'),
          'X-Razorpay-Event-Id': 'The event id, for handling it once (else a hash of the body).',
        },
        body: {
          type: ['application/json', 'text/plain'],
          description: 'The gateway’s event, read as the exact bytes sent.',
          schema: { type: 'object', properties: { event: { type: 'string' }, payload: { type: 'object' } } },
        },
        responses: {
          200: json('{"status": "handled" | "duplicate" | "ignored"}.', {
            type: 'object',
            properties: { status: { enum: ['handled', 'duplicate', 'ignored'] } },
          }),
          400: json('Invalid signature, or a body that is not JSON.'),
          404: json('Not Found: not the configured gateway.'),
        },
      },
    },
  },

  // WebSockets
  {
    path: '/ws/conference',
    methods: {
      get: {
        summary: 'The live conference: signalling, chat, whiteboard, hands, recording and SFU negotiation.',
        access: {
          who: 'Anyone may connect; the first message {"type":"auth","token"} (a session) or {"type":"auth","ticket"} (a guest ticket) decides',
          security: [],
        },
        headers: upgrade(),
        responses: { 101: switching(), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'none',
          messages: `JSON text frames (docs/conference-protocol.md); a frame over ${WS_MAX_MESSAGE_BYTES} bytes gets an error message.`,
          closeCodes: {
            4401: 'unauthenticated',
            4409: 'the same account already has this room open',
            4000: 'the meeting was ended',
            1012: 'server restart: reconnect',
            1001: 'server shutdown',
            1009: 'a frame far over the limit',
          },
          client: clientMessage,
          server: serverMessage,
        },
      },
    },
  },
  {
    path: '/ws/labs/terminal/{name}',
    methods: {
      get: {
        summary: 'A lab’s terminal: xterm.js ⇄ an SSH shell on the lab.',
        access: labAccess(),
        params: LAB_NAME,
        query: { cols: 'Terminal columns (default 120).', rows: 'Terminal rows (default 32).' },
        headers: upgrade('tl-terminal, auth.<token>'),
        responses: { 101: switching('tl-terminal'), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'tl-terminal, auth.<token>',
          messages:
            'Client: binary keystrokes, or JSON {"type":"data","data"} / {"type":"resize","cols","rows"}. Server: binary terminal output.',
          closeCodes: LAB_CLOSE_CODES,
        },
      },
    },
  },
  {
    path: '/ws/labs/vnc/{name}',
    methods: {
      get: {
        summary: 'A lab’s desktop: noVNC ⇄ the lab’s VNC server (a WebSocket-to-TCP proxy).',
        access: labAccess('; with ?view, a moderator of that training watching (input dropped)'),
        params: LAB_NAME,
        query: { view: 'A training slug: watch a learner’s desktop as its moderator, view only.' },
        headers: upgrade('binary, auth.<token>'),
        responses: { 101: switching('binary'), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'binary, auth.<token>',
          messages: 'Binary RFB both ways.',
          closeCodes: LAB_CLOSE_CODES,
        },
      },
    },
  },
  {
    path: '/ws/labs/rdp/{name}',
    methods: {
      get: {
        summary: 'A Windows lab’s desktop: guacamole-common-js ⇄ guacd (GUACD_HOST) ⇄ RDP.',
        access: labAccess(),
        params: LAB_NAME,
        headers: upgrade('guacamole, auth.<token>'),
        responses: { 101: switching('guacamole'), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'guacamole, auth.<token>',
          messages:
            'Guacamole instructions; the close reason carries the Guacamole status code guacamole-common-js reads.',
          closeCodes: LAB_CLOSE_CODES,
        },
      },
    },
  },
];
