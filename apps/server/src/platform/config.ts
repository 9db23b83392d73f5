import { isIP } from 'node:net';
import { IMPORT_MAX_FILE_BYTES, IMPORT_MAX_ROWS } from '@trainlab/contract';
import { z } from 'zod';

/**
 * All configuration comes from the environment, parsed once here. A bad value stops the process
 * at start with the variable's name, instead of failing later in a request.
 */
/**
 * The lab image's tag (adapters/labs/container-image.ts). Its number goes up with every change of
 * what the image holds (2: tmux for terminals that survive a reload, modes set whatever the umask),
 * so a host that has an older image builds the new one at its next start instead of running labs on
 * the old one.
 */
export const DEFAULT_LAB_IMAGE = 'trainlab-lab:bookworm-3';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An address with an optional /prefix that fits its family. */
function cidrPrefixOk(entry: string): boolean {
  const [address, prefix] = entry.split('/');
  if (prefix === undefined) return true;
  const max = isIP(address!) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max;
}

/** A comma-separated setting as its trimmed, non-empty entries (empty when unset). */
const commaList = (each: (entry: string) => string = (e) => e) =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => each(e.trim()))
        .filter(Boolean),
    );

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** where to listen; default: localhost outside production (this machine only), 0.0.0.0 in production */
  HOST: z.string().optional(),
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
  /** the embedded database's WebAssembly: optimised code for hot paths too (more memory; pglite-wasm.ts) */
  PGLITE_WASM_TIER_UP: bool.default(false),
  /** PostgreSQL reads prepared once per connection (statement-names.ts); false behind PgBouncer < 1.21 */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('TrainLab <no-reply@trainlab.local>'),
  SMS_GATEWAY_URL: z.url().optional(),
  SMS_GATEWAY_TOKEN: z.string().optional(),
  CORS_ORIGINS: commaList(),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(168),
  /** rows an Excel import may hold (the specification's 10,000); a larger file is refused before it is parsed */
  IMPORT_MAX_ROWS: z.coerce.number().int().positive().max(1_000_000).default(IMPORT_MAX_ROWS),
  /** largest Excel file an import accepts, in bytes (the specification's 5 MB); raise it with IMPORT_MAX_ROWS */
  IMPORT_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(100 * 1024 * 1024)
    .default(IMPORT_MAX_FILE_BYTES),
  /** a resolved session is reused this long without asking the database (0: always ask); decision 0024 */
  SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  /**
   * a hot list's answer is reused this long at most while nothing it reads is written (0: always ask
   * the database); decision 0050
   */
  ANSWER_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  FORGOT_RATE_LIMIT: z.coerce.number().int().positive().default(5),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * Demo accounts (published password) on an empty database: default on in development bound to
   * loopback, off when bound beyond it; never in production (docs/operations.md, Before going live)
   */
  SEED_DEMO: bool.optional(),
  /** the dev mailbox (/api/dev-mailbox): same default as SEED_DEMO; never in production */
  DEV_MAILBOX: bool.optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  // ---- production hardening (docs/operations.md) ----
  /** more origins the browser may call (fetch/WebSocket), comma-separated, e.g. a TURN REST API */
  CSP_CONNECT_SRC: commaList(),
  /** where browsers report Content-Security-Policy violations (report-uri); none when unset */
  CSP_REPORT_URI: z.string().optional(),
  /** audit rows older than this many days are removed by the daily clean-up job; 0 keeps them forever */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).default(730),
  /** bearer token of GET /metrics (Prometheus); the path answers 404 while unset */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * how long a claimed job is another instance's to take over unless its runner renews the claim (it
   * does every third of it while the job runs): a job of an instance that died runs elsewhere after this
   */
  JOB_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /** how long a stopping server waits for requests and jobs before it exits anyway */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().default(15),
  /**
   * Whose X-Forwarded-For to believe for the client address (per-IP rate limits): 'false' (nobody,
   * the default: any local process could forge it), 'loopback' (a reverse proxy on this machine),
   * 'true' (anybody: only behind a proxy that overwrites the header), a hop count, or a comma list of
   * addresses/CIDRs.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
    ),
  /**
   * Addresses a user enters that the server fetches (SSO metadata URLs, OpenID issuers) may not lead
   * to loopback, private, link-local (the cloud metadata service), multicast or reserved addresses
   * (platform/http/outbound-fetch.ts) unless listed here: host names, addresses or CIDR ranges,
   * comma-separated, e.g. `idp.corp.internal,10.20.0.0/16`. Empty (the default) allows none.
   */
  OUTBOUND_ALLOW_PRIVATE: commaList((s) => s.toLowerCase()).refine(
    (list) =>
      list.every((e) => (isIP(e.split('/')[0]!) ? cidrPrefixOk(e) : /^[a-z0-9.-]+$/.test(e) && !e.includes('/'))),
    'must be host names, addresses or CIDR ranges, comma-separated',
  ),
  /**
   * The DNS server that checks the TXT records proving an organization owns an e-mail domain
   * (`host` or `host:port`); the system's resolvers when unset
   */
  DNS_RESOLVER: z
    .string()
    .regex(/^(\[[0-9a-f:]+\]|[0-9a-z.:-]+?)(:\d{1,5})?$/i, 'must be host or host:port')
    .optional(),
  // ---- cloud labs ----
  /**
   * container: each lab is a container (shell and desktop inside) on a Docker Engine API, this host's
   * dockerd or DOCKER_HOST's; memory: simulated labs without remote access (tests, demos); gce: Google
   * Compute Engine; local: accounts on this host (development only: refused in production)
   */
  LAB_PROVIDER: z.enum(['container', 'local', 'memory', 'gce', 'kubernetes']).default('container'),
  /** container: the lab image (npm run lab-image builds it; built at first start when missing) */
  LAB_IMAGE: z.string().min(1).default(DEFAULT_LAB_IMAGE),
  /** container: build the lab image at start-up when it is missing (needs root and debootstrap) */
  LAB_IMAGE_AUTOBUILD: bool.default(true),
  /** container: labs reach the internet (never the host's services by default rules, never each other) */
  LAB_INTERNET: bool.default(false),
  /** container: CPUs per lab (a quota, fractions allowed) and processes per lab */
  LAB_CPUS: z.coerce.number().min(0.1).max(64).default(1),
  LAB_PIDS_LIMIT: z.coerce.number().int().min(32).max(100_000).default(512),
  /**
   * container: run labs without a disk cap on a host that cannot size each lab's home (not root, a
   * remote engine, no loop devices): one lab may then fill the host's disk. Refused in production.
   */
  LAB_DISK_UNCAPPED: bool.default(false),
  /**
   * container: who mounts each lab's sized home on the engine's host. auto: this server when it runs
   * as root beside its engine, else the engine (a one-shot helper with SYS_ADMIN in the host's
   * namespaces); host or engine: only that way.
   */
  LAB_DISK_VIA: z.enum(['auto', 'host', 'engine']).default('auto'),
  /** container: the folder of the engine's host holding lab disks (default DATA_DIR/lab-disks, or /var/lib/trainlab-lab-disks/<namespace> through the engine) */
  LAB_DISK_DIR: z
    .string()
    .regex(/^\/[^'\\\n]*$/, 'must be an absolute path')
    .optional(),
  /**
   * container: capacity (docs/operations.md "Lab capacity"). A lab's RAM is its limit; its request is
   * what it is expected to use (an idle lab with its desktop measured 46-55 MiB). Starts are admitted
   * while the running and starting labs' requests fit in the host's memory less the reserve kept for
   * the server, its database and the engine.
   */
  LAB_MEMORY_REQUEST_MB: z.coerce.number().int().min(16).max(1_048_576).default(256),
  LAB_MEMORY_RESERVE_MB: z.coerce.number().int().min(0).max(1_048_576).default(3072),
  /** how often an open lab socket re-checks its session and its right to the lab (ms) */
  LAB_SOCKET_RECHECK_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** container: this install's name on the engine (default: derived from its database) */
  LAB_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,30}$/)
    .optional(),
  /** the local engine's SSH server for lab logins (bound to 127.0.0.1) */
  LAB_SSH_PORT: z.coerce.number().int().min(1).max(65535).default(2222),
  // kubernetes (adapters/labs/kubernetes.ts; the cluster comes from KUBECONFIG or the pod's service account)
  /** kubernetes: the lab image in a registry the cluster pulls from (e.g. registry.example.com/trainlab-lab:bookworm-3) */
  LAB_K8S_IMAGE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._:/@-]{0,254}$/i, 'must be an image reference')
    .optional(),
  /** kubernetes: the one namespace of this install's labs (default trainlab-{LAB_NAMESPACE or derived}) */
  LAB_K8S_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a Kubernetes namespace name')
    .optional(),
  /** kubernetes: the UID (and GID) labs run as: an account no node has; never root, never below 1000 */
  LAB_K8S_UID: z.coerce.number().int().min(1000).max(2_147_483_647).default(1_000_000),
  /** kubernetes: the lab's home volume's storage class (default: the cluster's default class) */
  LAB_K8S_STORAGE_CLASS: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/)
    .optional(),
  /** kubernetes: a RuntimeClass for stronger isolation (gVisor, Kata) where the cluster has one */
  LAB_K8S_RUNTIME_CLASS: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/)
    .optional(),
  /** kubernetes: a seccomp profile on the nodes (Localhost, relative to the kubelet's seccomp folder); default RuntimeDefault */
  LAB_K8S_SECCOMP_PROFILE: z
    .string()
    .regex(/^[A-Za-z0-9._/-]{1,253}$/)
    .refine((v) => !v.split('/').includes('..') && !v.startsWith('/'), 'must be a relative path')
    .optional(),
  /** kubernetes, with LAB_INTERNET: more ranges labs never reach (the cluster's pod and service CIDRs, node addresses outside the private ranges) */
  LAB_K8S_BLOCKED_CIDRS: commaList().refine(
    (list) => list.every((e) => isIP(e.split('/')[0]!) === 4 && e.includes('/') && cidrPrefixOk(e)),
    'must be IPv4 CIDR ranges (a.b.c.d/n), comma-separated',
  ),
  /** kubernetes: how long a start waits for the cluster to place and start a lab, in seconds */
  LAB_K8S_START_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(180),
  /** kubernetes: a ResourceQuota on the labs' namespace (the whole install's ceiling): pods and GiB of memory */
  LAB_K8S_QUOTA_PODS: z.coerce.number().int().min(1).max(100_000).optional(),
  LAB_K8S_QUOTA_MEMORY_GB: z.coerce.number().int().min(1).max(1_000_000).optional(),
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
  /** HMAC key of the short-lived ?t= tokens of /api/recording-file; stored in the database when unset (platform/shared-secrets.ts) */
  RECORDING_URL_SECRET: z.string().min(16).optional(),
  // ---- recorded courses ----
  /** largest course video accepted, in bytes (default 2 GiB) */
  COURSE_VIDEO_MAX_BYTES: z.coerce.number().int().positive().default(2_147_483_648),
  /** HMAC key of the short-lived /api/course-media tokens; stored in the database when unset (platform/shared-secrets.ts) */
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
  /** production refuses the test gateway (anyone may mark an order paid) unless this says it is a staging site */
  STAGING_TEST_GATEWAY: bool.default(false),
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  /** Razorpay API base (only a test points it at a local fake) */
  RAZORPAY_API_URL: z.string().url().optional(),
  /** signing key of the test gateway's callbacks and webhooks; stored in the database when unset (platform/shared-secrets.ts) */
  TEST_GATEWAY_SECRET: z.string().min(16).optional(),
  /** GST included in prices, percent, unless a tenant sets its own (receipts show it) */
  GST_PERCENT: z.coerce.number().min(0).max(100).default(18),
  /** seller named on receipts */
  RECEIPT_SELLER: z.string().default('TrainLab'),
});

export type Config = z.infer<typeof schema> & { PUBLIC_URL: string; HOST: string };

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
  if (c.NODE_ENV === 'production' && c.PAYMENT_GATEWAY === 'test' && !c.STAGING_TEST_GATEWAY) {
    throw new ConfigError(
      'Invalid configuration:\n  PAYMENT_GATEWAY: the test gateway lets anyone mark an order paid; set PAYMENT_GATEWAY=razorpay, or STAGING_TEST_GATEWAY=true on a staging site (docs/operations.md, Before going live)',
    );
  }
  if (c.NODE_ENV === 'production' && c.LAB_DISK_UNCAPPED) {
    throw new ConfigError(
      "Invalid configuration:\n  LAB_DISK_UNCAPPED: one lab could fill the host's disk; run the server as root beside its container engine so each lab's home gets a disk of its size (docs/operations.md, Cloud labs)",
    );
  }
  if (c.NODE_ENV === 'production' && c.SEED_DEMO === true) {
    throw new ConfigError(
      'Invalid configuration:\n  SEED_DEMO: demo accounts have a published password and are never created in production (docs/operations.md, Before going live)',
    );
  }
  return {
    ...c,
    HOST: c.HOST ?? (c.NODE_ENV === 'production' ? '0.0.0.0' : 'localhost'),
    PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}
