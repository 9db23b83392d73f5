// The Chromium journeys across two server instances sharing one PostgreSQL database and one Redis
// (e2e/playwright.cluster.config.ts). Needs TEST_DATABASE_URL (a PostgreSQL database this script may
// create databases beside) and a Redis answering at REDIS_URL (default redis://127.0.0.1:6379).
// Creates a fresh database `<that database>_cluster_<time>`, runs the journeys under a Redis key and
// channel prefix of this run only, then drops the database and deletes the run's Redis keys.
//
//   node scripts/test-cluster.mjs          (after npm run build, or with E2E_FROM_SOURCE=1)
//
// `npm test` (scripts/test.mjs) runs it as one step when both are there and says why when not.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis server answers PING at `url` within `timeoutMs` (no retries). */
export async function redisAnswers(url, timeoutMs = 2000) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      late,
      redis
        .connect()
        .then(() => redis.ping())
        .then((r) => r === 'PONG'),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}

/**
 * What the two-instance journeys need, from the environment: `{ok: true, databaseUrl, redisUrl}` or
 * `{ok: false, reason}` saying what is missing.
 */
export async function clusterPrerequisites(env = process.env) {
  const databaseUrl = env.TEST_DATABASE_URL;
  const redisUrl = env.REDIS_URL || DEFAULT_REDIS_URL;
  if (!databaseUrl)
    return {
      ok: false,
      reason: 'TEST_DATABASE_URL is not set (both instances need one PostgreSQL database; PGlite has one process)',
    };
  if (!(await redisAnswers(redisUrl))) return { ok: false, reason: `no Redis answers PING at ${redisUrl}` };
  return { ok: true, databaseUrl, redisUrl };
}

const quoteIdent = (name) => `"${name.replaceAll('"', '""')}"`;

/** A fresh database beside `baseUrl`'s; answers its URL and a function that drops it. */
async function freshDatabase(baseUrl) {
  const { default: pg } = await import('pg');
  const base = new URL(baseUrl);
  const stem = decodeURIComponent(base.pathname.slice(1)).replace(/[^A-Za-z0-9_]/g, '_') || 'trainlab';
  const name = `${stem.slice(0, 30)}_cluster_${Date.now()}_${randomBytes(2).toString('hex')}`.toLowerCase();
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${quoteIdent(name)}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`drop database if exists ${quoteIdent(name)} with (force)`) };
}

/** Deletes the keys under `prefix` (channels need nothing: they vanish with their subscribers). */
async function deleteRedisKeys(redisUrl, prefix) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 200);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Runs the journeys on a fresh database; resolves to the Playwright exit code. */
export async function runClusterJourneys({ databaseUrl, redisUrl, env = process.env, args = [] }) {
  const db = await freshDatabase(databaseUrl);
  const prefix = `trainlab-e2e-cluster-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}:`;
  console.log(`Two instances on PostgreSQL database ${db.name} and Redis ${redisUrl} (prefix ${prefix})`);
  try {
    return await new Promise((resolve) => {
      const child = spawn('npx', ['playwright', 'test', '--config', 'e2e/playwright.cluster.config.ts', ...args], {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...env,
          E2E_CLUSTER_DATABASE_URL: db.url,
          E2E_CLUSTER_REDIS_URL: redisUrl,
          E2E_CLUSTER_REDIS_PREFIX: prefix,
        },
      });
      const forward = (signal) => child.kill(signal);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      child.on('exit', (code) => {
        process.off('SIGINT', forward);
        process.off('SIGTERM', forward);
        resolve(code ?? 1);
      });
    });
  } finally {
    await db.drop().catch((e) => console.warn(`could not drop database ${db.name}: ${e.message}`));
    await deleteRedisKeys(redisUrl, prefix).catch((e) => console.warn(`could not delete Redis keys: ${e.message}`));
  }
}

async function main() {
  const { ensureInstall } = await import('./ensure-install.mjs');
  process.chdir(root);
  ensureInstall();
  const fromSource = Boolean(process.env.E2E_FROM_SOURCE);
  if (!fromSource && !existsSync(path.join(root, 'apps/server/dist/main.js'))) {
    console.error('The server is not built: run npm run build first (or set E2E_FROM_SOURCE=1).');
    process.exit(1);
  }
  const web = process.env.E2E_WEB_DIST || path.join(root, 'apps/web/dist');
  if (!existsSync(path.join(web, 'index.html'))) {
    console.error(`No web build at ${web}: run npm run build first (or set E2E_WEB_DIST).`);
    process.exit(1);
  }
  const pre = await clusterPrerequisites();
  if (!pre.ok) {
    console.error(`The two-instance journeys cannot run: ${pre.reason}.`);
    process.exit(1);
  }
  process.exit(await runClusterJourneys({ ...pre, args: process.argv.slice(2) }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
