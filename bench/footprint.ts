/**
 * Start-up and footprint of the built server (apps/server/dist, `npm run build -w @trainlab/server`
 * first), on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL:
 * - cold start: a fresh data folder or database (migrations, the first admin) to a healthy /api/health;
 * - warm restart: the same server started again on what the first start left (nothing to migrate);
 * - resident memory (RSS, from /proc) idle after the restart and one login, then after a minute
 *   (BENCH_LOAD_SECONDS) of mixed load: health and the admin's lists (users, organizations, audit
 *   trail, each with its session check), 8 callers at once.
 * Production settings, no demo data. The load average before each run is printed beside it: the
 * figures of a loaded machine are not those of a quiet one.
 *
 *   npx tsx bench/footprint.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/footprint.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.resolve(here, '../apps/server');
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const ADMIN = { email: 'footprint-admin@bench.test', password: 'Footprint#2026' };

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const rssMb = (pid: number) => {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 1024);
};
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** Starts dist/main.js; answers once /api/health is 200, with the time it took. */
async function start(env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: server,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      // a bench has no real gateway: the test one, as on a staging site
      STAGING_TEST_GATEWAY: 'true',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000000',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: 'ignore',
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited while starting');
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base, ms: Math.round(performance.now() - t0) };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function login(base: string) {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, is_previous: true }),
  });
  return ((await res.json()) as { success: { token: string } }).success.token;
}

/** LOAD_SECONDS of health checks and the admin's first pages, 8 callers at once. */
async function mixedLoad(base: string, token: string) {
  const calls = [
    ['GET', '/api/health'],
    ['POST', '/api/get-all-lp-users'],
    ['POST', '/api/get-organizations'],
    ['POST', '/api/get-audit-log'],
  ] as const;
  const until = Date.now() + LOAD_SECONDS * 1000;
  let done = 0;
  const caller = async (n: number) => {
    for (let i = n; Date.now() < until; i++) {
      const [method, url] = calls[i % calls.length]!;
      await fetch(`${base}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: '{}' } : {}),
      }).then((r) => r.arrayBuffer());
      done++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, n) => caller(n)));
  return done;
}

async function engine(name: string, env: Record<string, string>) {
  const loadBefore = load();
  const cold = await start(env);
  await stop(cold.child);
  const warm = await start(env);
  const token = await login(warm.base);
  await new Promise((r) => setTimeout(r, 2000));
  const idle = rssMb(warm.child.pid!);
  const calls = await mixedLoad(warm.base, token);
  const loaded = rssMb(warm.child.pid!);
  await stop(warm.child);
  console.log(`| ${name} | ${cold.ms} | ${warm.ms} | ${idle} | ${loaded} (${calls} calls) | ${loadBefore} |`);
}

async function main() {
  console.log(`Built server (apps/server/dist), production settings; mixed load ${LOAD_SECONDS} s, 8 callers`);
  console.log(
    '| database | cold start ms | warm restart ms | RSS MB after one login | RSS MB after the load | load average before |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  const dir = mkdtempSync(path.join(tmpdir(), 'tl-footprint-'));
  try {
    await engine('PGlite', { DATA_DIR: dir, DATABASE_URL: '' });
    const base = process.env.BENCH_DATABASE_URL;
    if (base) {
      const name = `tl_footprint_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      try {
        await engine('PostgreSQL', { DATA_DIR: path.join(dir, 'pg'), DATABASE_URL: url.toString() });
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
