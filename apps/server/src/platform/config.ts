import { IMPORT_MAX_FILE_BYTES, IMPORT_MAX_ROWS } from '@trainlab/contract';
import { z } from 'zod';

/**
 * All configuration comes from the environment, parsed once here. A bad value stops the process
 * at start with the variable's name, instead of failing later in a request.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  // ---- file store ----
  /** disk: files under DATA_DIR/files (default); s3: an S3-compatible bucket (S3_* below) */
  FILE_STORE: z.enum(['disk', 's3']).default('disk'),
  /** the S3 API's URL when not AWS itself (MinIO, Ceph, a local test server) */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** bucket in the path (http://host/bucket/key), as most S3-compatible servers need */
  S3_FORCE_PATH_STYLE: bool.default(false),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('TrainLab <no-reply@trainlab.local>'),
  SMS_GATEWAY_URL: z.url().optional(),
  SMS_GATEWAY_TOKEN: z.string().optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(168),
  /** a resolved session is reused this long without asking the database (0: always ask); decision 0024 */
  /** rows an Excel import may hold (the specification's 10,000); a larger file is refused before it is parsed */
  IMPORT_MAX_ROWS: z.coerce.number().int().positive().max(1_000_000).default(IMPORT_MAX_ROWS),
  /** largest Excel file an import accepts, in bytes (the specification's 5 MB); raise it with IMPORT_MAX_ROWS */
  IMPORT_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(100 * 1024 * 1024)
    .default(IMPORT_MAX_FILE_BYTES),
  SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  FORGOT_RATE_LIMIT: z.coerce.number().int().positive().default(5),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  SEED_DEMO: bool.optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  // ---- production hardening (docs/operations.md) ----
  /** more origins the browser may call (fetch/WebSocket), comma-separated, e.g. a TURN REST API */
  CSP_CONNECT_SRC: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /** where browsers report Content-Security-Policy violations (report-uri); none when unset */
  CSP_REPORT_URI: z.string().optional(),
  /** audit rows older than this many days are removed by the daily clean-up job; 0 keeps them forever */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).default(730),
  /** bearer token of GET /metrics (Prometheus); the path answers 404 while unset */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** how long a stopping server waits for requests and jobs before it exits anyway */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().default(15),
  /**
   * Whose X-Forwarded-For to believe for the client address (per-IP rate limits): 'loopback' (a
   * reverse proxy on this machine), 'false' (nobody), 'true' (anybody: only behind a proxy that
   * overwrites the header), a hop count, or a comma list of addresses/CIDRs.
   */
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((v): boolean | number | string =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
    ),
  // ---- cloud labs ----
  /** local: each lab is a shell (OpenSSH) and desktop (TigerVNC) on this host; memory: simulated labs without remote access (tests, demos); gce: Google Compute Engine */
  LAB_PROVIDER: z.enum(['local', 'memory', 'gce']).default('local'),
  /** the local engine's SSH server for lab logins (bound to 127.0.0.1) */
  LAB_SSH_PORT: z.coerce.number().int().min(1).max(65535).default(2222),
  /** gce: the service-account key file (JSON) the engine signs its calls with; read by the engine only */
  GCE_KEY_FILE: z.string().optional(),
  /** gce: the project the labs live in (default: the key file's project_id) */
  GCE_PROJECT: z.string().optional(),
  /** gce: another address of the Compute REST API (a private endpoint; the tests' fake) */
  GCE_API_ENDPOINT: z.url().optional(),
  /** Windows labs over RDP: the Guacamole daemon (guacd) our server speaks to; unset = no RDP */
  GUACD_HOST: z.string().optional(),
  GUACD_PORT: z.coerce.number().int().min(1).max(65535).default(4822),
  // ---- live conference ----
  /**
   * builtin: WebRTC rooms signalled over /ws/conference (a mesh; with JANUS_URL, large classes use
   * Janus); janus: the same rooms with media through Janus; jitsi: the Jitsi Meet IFrame API on JITSI_DOMAIN
   */
  MEETING_PROVIDER: z.enum(['builtin', 'jitsi', 'janus']).default('builtin'),
  /** Janus's WebSocket API (e.g. ws://127.0.0.1:8188): only our server speaks to it, never browsers */
  JANUS_URL: z
    .string()
    .regex(/^wss?:\/\/[^\s]+$/, 'must be a ws:// or wss:// URL')
    .optional(),
  /** the VideoRoom plugin's admin_key (room creation); never sent to browsers or logged */
  JANUS_ADMIN_SECRET: z.string().min(8).optional(),
  /** Janus's core api_secret, when it has one */
  JANUS_API_SECRET: z.string().optional(),
  /** where Janus writes its recordings (.mjr), readable by this server; unset = recordings stay in the browser */
  JANUS_RECORD_DIR: z.string().optional(),
  /** with MEETING_PROVIDER=builtin and JANUS_URL: classes larger than this meet through Janus */
  MESH_MAX_PARTICIPANTS: z.coerce.number().int().min(1).max(1000).default(6),
  /** the most video streams one page may receive through Janus at a time (its visible page of tiles) */
  SFU_MAX_SUBSCRIBED_VIDEO: z.coerce.number().int().min(1).max(50).default(9),
  /** RTCIceServer list as JSON, e.g. [{"urls":"stun:stun.example.com:3478"}]; [] on a LAN */
  ICE_SERVERS: z
    .string()
    .default('[]')
    .transform((v, ctx) => {
      try {
        const parsed = JSON.parse(v);
        if (Array.isArray(parsed)) return parsed as Record<string, unknown>[];
      } catch {
        /* reported below */
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of ICE servers' });
      return z.NEVER;
    }),
  /**
   * TURN relay (coturn with use-auth-secret): comma-separated turn:/turns: URLs and the shared
   * secret; each participant then gets its own credential, good for TURN_TTL_SECONDS
   */
  TURN_URLS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((u) => u.trim())
            .filter(Boolean)
        : [],
    )
    .refine((urls) => urls.every((u) => /^turns?:/.test(u)), 'must be turn: or turns: URLs, comma-separated'),
  TURN_SECRET: z.string().min(16).optional(),
  TURN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(86400)
    .default(6 * 3600),
  JITSI_DOMAIN: z.string().optional(),
  JITSI_APP_ID: z.string().optional(),
  JITSI_APP_SECRET: z.string().optional(),
  /** Redis for realtime fan-out between server instances; in-process without it */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().default('trainlab:'),
  /** a dropped conference connection counts as a leave after this many seconds */
  CONFERENCE_GRACE_SECONDS: z.coerce.number().min(0).default(15),
  /** WebSocket ping interval; a connection that misses one pong is dropped */
  CONFERENCE_HEARTBEAT_SECONDS: z.coerce.number().positive().default(30),
  // ---- meeting recordings ----
  /** largest recording accepted, in bytes (default 2 GiB) */
  RECORDING_MAX_BYTES: z.coerce.number().int().positive().default(2_147_483_648),
  /** HMAC key of the short-lived ?t= tokens of /api/recording-file; random per process when unset */
  RECORDING_URL_SECRET: z.string().min(16).optional(),
  // ---- recorded courses ----
  /** largest course video accepted, in bytes (default 2 GiB) */
  COURSE_VIDEO_MAX_BYTES: z.coerce.number().int().positive().default(2_147_483_648),
  /** HMAC key of the short-lived /api/course-media tokens; random per process when unset */
  COURSE_MEDIA_SECRET: z.string().min(16).optional(),
  /** ffmpeg and ffprobe programs (Debian package ffmpeg) */
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  /** Janus's recording converter (Debian package janus-tools): server-side recordings of sfu rooms */
  JANUS_PP_REC_PATH: z.string().default('janus-pp-rec'),
  // ---- encryption at rest ----
  /** `id:base64(32 bytes),…`, the first encrypts; a key in DATA_DIR when unset (platform/field-cipher.ts) */
  FIELD_ENCRYPTION_KEYS: z
    .string()
    .regex(
      /^\s*[\w-]+:[A-Za-z0-9+/=]{43,44}\s*(,\s*[\w-]+:[A-Za-z0-9+/=]{43,44}\s*)*$/,
      'must be id:base64key[,id:base64key…] with 32-byte keys',
    )
    .optional(),
  // ---- payments ----
  /** test: the embedded test gateway (offline checkout page); razorpay: Razorpay with the keys below */
  PAYMENT_GATEWAY: z.enum(['test', 'razorpay']).default('test'),
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  /** Razorpay API base (only a test points it at a local fake) */
  RAZORPAY_API_URL: z.string().url().optional(),
  /** signing key of the test gateway's callbacks and webhooks; random per process when unset */
  TEST_GATEWAY_SECRET: z.string().min(16).optional(),
  /** GST included in prices, percent, unless a tenant sets its own (receipts show it) */
  GST_PERCENT: z.coerce.number().min(0).max(100).default(18),
  /** seller named on receipts */
  RECEIPT_SELLER: z.string().default('TrainLab'),
});

export type Config = z.infer<typeof schema> & { PUBLIC_URL: string };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (as in a copied .env.example) means "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.TURN_URLS.length > 0 !== !!c.TURN_SECRET) {
    throw new ConfigError('Invalid configuration:\n  TURN_URLS and TURN_SECRET: set both or neither');
  }
  if (c.MEETING_PROVIDER === 'janus' && (!c.JANUS_URL || !c.JANUS_ADMIN_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  JANUS_URL and JANUS_ADMIN_SECRET: are required when MEETING_PROVIDER=janus',
    );
  }
  if (c.JANUS_URL && !c.JANUS_ADMIN_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JANUS_ADMIN_SECRET: is required when JANUS_URL is set');
  }
  if (c.FILE_STORE === 's3' && !c.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: is required when FILE_STORE=s3');
  }
  return { ...c, PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '') };
}
