import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { JANUS_BIN, JANUS_MISSING } from '../scripts/janus-local.mjs';
import { CHROMIUM_WITH_FAKE_MEDIA } from './support/browser';

/**
 * The conference journey with the Janus engine (tests/conference-janus.spec.ts): one server with
 * MEETING_PROVIDER=janus on E2E_JANUS_PORT (3160), beside a throwaway Janus of its own
 * (support/janus-stack.mjs starts both). Janus (Debian `janus janus-tools`) must be installed.
 */
if (!existsSync(JANUS_BIN)) throw new Error(JANUS_MISSING);

const PORT = Number(process.env.E2E_JANUS_PORT ?? 3160);
const BASE_URL = `http://localhost:${PORT}`;
// Playwright loads this file in every worker; the server (started once) gets a fresh data folder
process.env.E2E_JANUS_DATA_DIR ||= mkdtempSync(path.join(tmpdir(), 'trainlab-e2e-janus-'));
const dataDir = process.env.E2E_JANUS_DATA_DIR;

export default defineConfig({
  testDir: './tests',
  testMatch: /conference-janus\.spec\.ts$/,
  timeout: 180_000,
  expect: { timeout: 10_000 },
  // one worker: the journey signs in as the demo provider (one live session per account)
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: process.env.E2E_OUTPUT_DIR ?? './.artifacts/janus-results',
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: CHROMIUM_WITH_FAKE_MEDIA,
  },
  webServer: {
    command: 'node support/janus-stack.mjs',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: process.env.E2E_JANUS_STDOUT ? 'pipe' : 'ignore',
    stderr: 'pipe',
    // SIGTERM: the server closes its Janus sessions, then Janus stops
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    // everything set here: the server process otherwise inherits this process's environment
    env: {
      NODE_ENV: 'development',
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOGIN_RATE_LIMIT: '1000',
      // labs run on the default container engine; its image is built once beforehand (npm run lab-image)
      LAB_IMAGE_AUTOBUILD: 'false',
      FORGOT_RATE_LIMIT: '1000',
      LOG_LEVEL: process.env.E2E_JANUS_LOG_LEVEL ?? 'warn',
      WEB_DIST: process.env.E2E_WEB_DIST ?? '',
      E2E_FROM_SOURCE: process.env.E2E_FROM_SOURCE ?? '',
    },
  },
});
