import { timingSafeEqual } from 'node:crypto';
import { ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { redisClass } from '../../adapters/realtime/redis-client';
import { jobs } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { RETRY_AFTER_SECONDS, sendRefusal } from '../../platform/errors';

/**
 * What an operator watches: GET /api/live (the process runs), GET /api/ready (the database, and Redis when configured, answer) and
 * GET /metrics in Prometheus' format, answered only with `Authorization: Bearer METRICS_TOKEN` (404
 * while METRICS_TOKEN is unset). /api/health stays the cheap liveness answer.
 */
export function operationsRoutes(app: FastifyInstance, deps: Deps): void {
  // nothing but the process: a load balancer's or orchestrator's restart must not follow the database down
  app.get('/api/live', async () => ({ status: 'alive' }));
  readiness(app, deps);
  if (deps.config.METRICS_TOKEN) metrics(app, deps, deps.config.METRICS_TOKEN);
  // off: a plain 404, not the web app's page for an unknown path
  else app.get('/metrics', async (_request, reply) => sendRefusal(reply, 404, 'Not Found'));
}

function readiness(app: FastifyInstance, deps: Deps): void {
  let redis: Redis | null = null;
  const redisUrl = deps.config.REDIS_URL;
  app.addHook('onClose', async () => {
    redis?.disconnect();
  });
  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

  app.get('/api/ready', async (_request, reply) => {
    const checks: Record<string, string> = {};
    try {
      await within(deps.database.ping(), 2000);
      checks.database = 'ok';
    } catch {
      checks.database = 'unavailable';
    }
    if (redisUrl) {
      if (!redis) {
        redis = new (redisClass())(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
        // a failed connection is this check's answer, not an unhandled error
        redis.on('error', () => undefined);
      }
      try {
        if (redis.status === 'wait' || redis.status === 'end') await within(redis.connect(), 2000);
        await within(redis.ping(), 2000);
        checks.redis = 'ok';
      } catch {
        checks.redis = 'unavailable';
      }
    }
    const ready = Object.values(checks).every((v) => v === 'ok');
    if (!ready) reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', ...checks });
  });
}

function metrics(app: FastifyInstance, deps: Deps, token: string): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Answered requests',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (absent on the embedded database)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = deps.database.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'job_queue_depth',
    help: 'Background jobs by status (queued, running, failed)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const rows = await deps.db
        .select({ status: jobs.status, n: sql<number>`count(*)::int` })
        .from(jobs)
        .where(ne(jobs.status, 'done'))
        .groupBy(jobs.status);
      this.reset();
      for (const status of ['queued', 'running', 'failed']) this.set({ status }, 0);
      for (const r of rows) this.set({ status: r.status }, Number(r.n));
    },
  });
  new Gauge({
    name: 'conference_open_sockets',
    help: 'Open conference WebSocket connections on this instance',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('conferenceHub') ? app.conferenceHub.openConnections : 0);
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    // the route's pattern, never the raw URL: a label per slug would grow without end
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return sendRefusal(reply, 401, 'Unauthenticated.');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
