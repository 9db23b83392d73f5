import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_WITH_FAKE_MEDIA } from './support/browser';

/**
 * Journeys across two server instances sharing one PostgreSQL database and one Redis (the
 * production set-up behind one address). Instance A listens on E2E_CLUSTER_PORT (3150), B on the
 * next port; each has its own PUBLIC_URL, so a page loaded from B signals over B's WebSocket.
 *
 * E2E_CLUSTER_DATABASE_URL (required): a fresh PostgreSQL database, used by both instances (PGlite
 * cannot be shared by two processes). `node scripts/test-cluster.mjs` creates one, runs this
 * config and drops it. Redis: E2E_CLUSTER_REDIS_URL, else REDIS_URL, else redis://127.0.0.1:6379,
 * under a key/channel prefix of this run only.
 *
 * Start-up: Playwright starts the webServer entries one after another and waits for each to answer
 * its health URL, so B starts on a migrated and seeded database; the servers would be safe started
 * together too (migrations and the demo seed run under a PostgreSQL advisory lock).
 */
const PORT_A = Number(process.env.E2E_CLUSTER_PORT ?? 3150);
const PORT_B = PORT_A + 1;

const databaseUrl = process.env.E2E_CLUSTER_DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
  throw new Error(
    'E2E_CLUSTER_DATABASE_URL must name a fresh PostgreSQL database (or run: node scripts/test-cluster.mjs)',
  );
}
const redisUrl = process.env.E2E_CLUSTER_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';
// Playwright loads this file in every worker: what is drawn at random is drawn once and handed on.
function drawnOnce(name: string, draw: () => string): string {
  process.env[name] ??= draw();
  return process.env[name];
}
const run = drawnOnce('E2E_CLUSTER_RUN', () => `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
const redisPrefix = drawnOnce('E2E_CLUSTER_REDIS_PREFIX', () => `trainlab-e2e-cluster-${run}:`);
const dataDir = drawnOnce('E2E_CLUSTER_DATA_DIR', () => mkdtempSync(path.join(tmpdir(), 'trainlab-e2e-cluster-')));
const recordingSecret = drawnOnce('E2E_CLUSTER_RECORDING_SECRET', () => randomBytes(24).toString('hex'));

const command = process.env.E2E_FROM_SOURCE ? 'npx tsx ../apps/server/src/main.ts' : 'node ../apps/server/dist/main.js';

function instance(name: string, port: number) {
  const url = `http://localhost:${port}`;
  return {
    name,
    command,
    url: `${url}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // SIGTERM: the server closes its Redis and database connections before it exits
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
    // everything set here: the server process otherwise inherits this process's environment
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      RECORDING_URL_SECRET: recordingSecret,
      MEETING_PROVIDER: 'builtin',
      LAB_IMAGE_AUTOBUILD: 'false',
      LOGIN_RATE_LIMIT: '1000',
      FORGOT_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      WEB_DIST: process.env.E2E_WEB_DIST ?? '',
    },
  };
}

export default defineConfig({
  testDir: './cluster',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // one worker: the journeys sign in as the same demo provider (one live session per account)
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: './.artifacts/cluster-results',
  use: {
    baseURL: `http://localhost:${PORT_A}`,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: CHROMIUM_WITH_FAKE_MEDIA,
  },
  // started in this order, B only once A answers /api/health
  webServer: [instance('instance A', PORT_A), instance('instance B', PORT_B)],
});
