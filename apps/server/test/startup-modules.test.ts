import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Janode from 'janode';
import VideoRoomPlugin from 'janode/plugins/videoroom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JANODE_EVENT, VIDEOROOM_EVENT } from '../src/adapters/meeting/janus';
import { freePort } from './free-port';
import { freshDatabaseUrl } from './helpers';

/**
 * Decision 0040: an engine's client library loads only on a server configured for that engine, a
 * feature's heavy library with the feature's first use. The production bundle is built as `npm
 * start` builds it and started with the default configuration (PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set); a loader hook records every module the process loads until it has
 * answered /api/health and one login, and none of these may be among them.
 */
const NOT_AT_START = [
  // engines that are not the default one
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  '@google-cloud/compute',
  'google-auth-library',
  'razorpay',
  'janode',
  'ioredis',
  'nodemailer',
  '@node-saml/node-saml',
  'openid-client',
  'selfsigned',
  // features' libraries, loaded with their first use
  'pdf-lib',
  '@pdf-lib/fontkit',
  'qrcode',
  'sharp',
  'exceljs',
  'xlsx',
  'jszip',
  // (ssh2, the terminal's SSH client, also loads with the container engine's client: docker-modem needs it)
];

const server = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'tl-startup-modules-'));
// inside apps/server so that the bundle finds its npm dependencies as dist/ does
const outdir = path.join('dist', path.basename(work));
let loaded: string[] = [];
let loginStatus = 0;
let exitCode: number | null = null;

/** The package a loaded file belongs to (its last node_modules folder), or null for our own code. */
function packageOf(file: string): string | null {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/[^/]*/.exec(file.slice(file.lastIndexOf('node_modules/')));
  return m ? m[1]! : null;
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: server, stdio: 'ignore' });
  const fresh = await freshDatabaseUrl();
  const record = path.join(work, 'modules.txt');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', './test/module-recorder.mjs', path.join(outdir, 'main.js')], {
    cwd: server,
    env: {
      PATH: process.env.PATH,
      MODULE_RECORD: record,
      NODE_ENV: 'production',
      // no real gateway in a test: the test one, as on a staging site
      STAGING_TEST_GATEWAY: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: work,
      DATABASE_URL: process.env.TEST_DATABASE_URL ? fresh.url : '',
      MIGRATIONS_DIR: path.join(server, 'drizzle'),
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'start-admin@example.test',
      ADMIN_PASSWORD: 'Start#Admin2026',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  try {
    let up = false;
    while (!up && child.exitCode === null) {
      up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await new Promise((r) => setTimeout(r, 250));
    }
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'start-admin@example.test', password: 'Start#Admin2026', is_previous: true }),
    });
    loginStatus = login.status;
  } finally {
    child.kill('SIGTERM');
    await exited;
    await fresh.drop();
  }
  loaded = readFileSync(record, 'utf8').split('\n').filter(Boolean);
}, 300_000);

afterAll(() => {
  rmSync(path.join(server, outdir), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('the server at start, default configuration', () => {
  it('answered a login and stopped cleanly, with the recorder watching', () => {
    expect(loginStatus).toBe(200);
    expect(exitCode).toBe(0);
    // the recorder saw the libraries a start does need: its silence would prove nothing
    const packages = new Set(loaded.map(packageOf));
    expect(packages).toContain('fastify');
    expect(packages).toContain('drizzle-orm');
    expect(packages).toContain('argon2');
  });

  it("loads no library of an engine that is not configured, nor any feature's heavy library", () => {
    const packages = new Set(loaded.map(packageOf).filter((p): p is string => !!p));
    const early = NOT_AT_START.filter((p) => packages.has(p));
    expect(early).toEqual([]);
    expect([...packages].filter((p) => p.startsWith('@expo-google-fonts/'))).toEqual([]);
  });
});

describe('janode, loaded with the first connection to Janus', () => {
  it('sends the events our relay listens for under the names we wrote down', () => {
    for (const [key, name] of Object.entries(JANODE_EVENT))
      expect(Janode.EVENT[key as keyof typeof Janode.EVENT]).toBe(name);
    const videoroom = VideoRoomPlugin.EVENT as Record<string, string>;
    for (const [key, name] of Object.entries(VIDEOROOM_EVENT)) expect(videoroom[key]).toBe(name);
  });
});
