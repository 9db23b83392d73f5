#!/usr/bin/env node
/**
 * The server of the Janus journeys (playwright.janus.config.ts): a throwaway Janus
 * (scripts/janus-local.mjs, on a free loopback port) and our built server with
 * MEETING_PROVIDER=janus pointed at it, in one process, because the server must learn Janus's port
 * and admin key before it starts. The server gets this process's environment plus the JANUS_*
 * settings; SIGTERM (Playwright's graceful shutdown) stops both.
 *
 *   node e2e/support/janus-stack.mjs   (PORT, PUBLIC_URL, DATA_DIR, … from the environment)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startJanus } from '../../scripts/janus-local.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const janus = await startJanus({ recordDir: process.env.JANUS_RECORD_DIR || undefined });
if (process.env.JANUS_PID_FILE) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(process.env.JANUS_PID_FILE, String(janus.pid));
}
const [command, ...args] = process.env.E2E_FROM_SOURCE
  ? ['npx', 'tsx', path.join(root, 'apps/server/src/main.ts')]
  : [process.execPath, path.join(root, 'apps/server/dist/main.js')];
const server = spawn(command, args, {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    MEETING_PROVIDER: 'janus',
    JANUS_URL: janus.url,
    JANUS_ADMIN_SECRET: janus.adminKey,
    JANUS_API_SECRET: janus.apiSecret ?? '',
    JANUS_RECORD_DIR: janus.recordDir,
  },
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) {
    const gone = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  }
  await janus.stop();
  process.exit(code);
}
server.once('exit', (code) => {
  if (!stopping) {
    console.error(`the server exited (${code}); stopping Janus`);
    void stop(code ?? 1);
  }
});
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
