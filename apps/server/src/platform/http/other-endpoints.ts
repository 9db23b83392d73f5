import type { Role } from '@trainlab/contract';
import type { z } from 'zod';

/**
 * How the endpoints that are not `POST /api/<path>` calls of the contract's permission table are
 * described: operations, signed media, the tus upload protocol, identity-provider and payment-gateway
 * callbacks, WebSockets. Their handlers speak HTTP directly, so nothing generates their OpenAPI
 * entries: each domain describes its own in its other-endpoints.ts with the types and builders here,
 * apps/server/src/other-endpoints.ts gathers them (the platform imports no domain), and a test fails
 * when the server registers a route that is neither a call nor described.
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

/** A header or parameter the endpoint refuses to work without. */
export const must = (description: string) => ({ description, required: true as const });

// Who may call, built the same way by every domain so the reference page words it alike.
export const anyone = (note?: string): Access => ({ who: note ? `Public: ${note}` : 'Public', security: [] });
export const signed = (who: string): Access => ({ who, security: [] });
export const roles = (list: readonly Role[], extra = '') => `Roles: ${list.join(', ')}${extra}`;

/** The body of an answer in words; a refusal's (status 400 and up) is documented with its code too. */
export const MESSAGE_BODY = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
export const json = (description: string, schema?: Record<string, unknown>): Answer => ({
  description,
  type: 'application/json',
  schema: schema ?? MESSAGE_BODY,
});
export const redirect = (description: string): Answer => ({ description, headers: { Location: description } });

/** A file served with byte ranges (a <video> element seeks with them). */
export const RANGE = 'A single `bytes=start-end` (or `bytes=-suffix`) range; other forms get the whole file.';
export const rangeAnswers = (type: string): Record<number, Answer> => ({
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

/** A WebSocket: the upgrade's request headers and answers. */
export const upgrade = (protocols?: string): Record<string, Field> => ({
  Upgrade: must('websocket'),
  Connection: must('Upgrade'),
  ...(protocols ? { 'Sec-WebSocket-Protocol': must(protocols) } : {}),
});
export const switching = (protocol?: string): Answer => ({
  description: `Switching Protocols: the WebSocket is open${protocol ? ` (Sec-WebSocket-Protocol: ${protocol})` : ''}.`,
  headers: { Upgrade: 'websocket', ...(protocol ? { 'Sec-WebSocket-Protocol': protocol } : {}) },
});
export const NO_UPGRADE: Answer = { description: 'A request without the WebSocket upgrade.' };
