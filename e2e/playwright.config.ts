import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './support/browser';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://localhost:${PORT}`;
// Playwright loads this file in every worker; the server (started once) gets a fresh data folder.
const dataDir = process.env.E2E_DATA_DIR || mkdtempSync(path.join(tmpdir(), 'trainlab-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// The every-route accessibility walk is the longest single file. E2E_SHARD=walk runs only it and
// E2E_SHARD=journeys everything else, so `npm test` can run the two side by side on two ports (the
// walk mostly waits on Chromium, so the two cores overlap well).
const WALK = /every-route-a11y\.spec\.ts$/;
// the Janus journey needs its own server and Janus: playwright.janus.config.ts
const JANUS = /conference-janus\.spec\.ts$/;
const shard = process.env.E2E_SHARD;

export default defineConfig({
  testDir: './tests',
  ...(shard === 'walk' ? { testMatch: WALK } : { testIgnore: shard === 'journeys' ? [WALK, JANUS] : JANUS }),
  // this run's labs on the container engine go when the journeys are over
  globalTeardown: './support/lab-cleanup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One worker: journeys sign in as the same demo accounts, and one account has one live session.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: process.env.E2E_OUTPUT_DIR ?? './.artifacts/results',
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: CHROMIUM,
  },
  webServer: {
    // E2E_FROM_SOURCE runs the server through tsx (no server build needed); E2E_WEB_DIST points at
    // another web build. Both let several journeys run side by side on one machine.
    command: process.env.E2E_FROM_SOURCE ? 'npx tsx ../apps/server/src/main.ts' : 'node ../apps/server/dist/main.js',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'development',
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR: dataDir,
      // embedded defaults (PGlite in DATA_DIR, in-process fan-out) whatever this shell has set: the
      // server process inherits the environment, and an empty value counts as unset
      DATABASE_URL: '',
      REDIS_URL: '',
      LOGIN_RATE_LIMIT: '1000',
      // labs run on the default container engine; its image is built once beforehand (npm run lab-image)
      LAB_IMAGE_AUTOBUILD: 'false',
      FORGOT_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      // the single sign-on journey's identity provider listens on 127.0.0.1 (the outbound guard refuses it otherwise)
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
      WEB_DIST: process.env.E2E_WEB_DIST ?? '',
    },
  },
});
