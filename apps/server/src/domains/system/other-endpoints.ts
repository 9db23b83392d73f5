import { anyone, json, must, type OtherEndpoint } from '../../platform/http/other-endpoints';

/**
 * The operations' endpoints: health, liveness, readiness, metrics, the backup, and the API document itself.
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const SYSTEM_ENDPOINTS: readonly OtherEndpoint[] = [
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
];
