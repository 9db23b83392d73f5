import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MSG } from '@trainlab/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_ENGINE_REFUSED } from '../src/adapters/labs/local';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/platform/db/client';
import { demoAccountsOn, devMailboxOn, isLoopbackHost } from '../src/platform/exposure';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo';
import { startupVerdict } from '../src/startup-verdict';
import { freePort } from './free-port';
import { createTestApp, freshDatabaseUrl } from './helpers';

/**
 * What someone attacking a fresh install tries first, and the start-up matrix of docs/operations.md
 * ("Before going live"): the real server process (tsx src/main.ts), on PGlite or on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
const work = mkdtempSync(path.join(tmpdir(), 'tl-startup-safety-'));
const drops: (() => Promise<void>)[] = [];
const children: ChildProcess[] = [];
const CHECKLIST = 'Before going live';

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const drop of drops) await drop();
  rmSync(work, { recursive: true, force: true });
});

/** A fresh database for one start: its DATABASE_URL (empty on PGlite: DATA_DIR/pglite) and its URL for us. */
async function database(folder: string) {
  const fresh = await freshDatabaseUrl();
  drops.push(fresh.drop);
  const dataDir = path.join(work, folder);
  const url = process.env.TEST_DATABASE_URL ? fresh.url : path.join(dataDir, 'pglite');
  return { dataDir, url, env: process.env.TEST_DATABASE_URL ? fresh.url : '' };
}

interface Started {
  base: string;
  child: ChildProcess;
  output: () => string;
  /** the exit code once the process has ended */
  exited: Promise<number | null>;
  /** resolves true once /api/health answers, false when the process ends first */
  up: Promise<boolean>;
}

async function start(env: Record<string, string>, folder: string): Promise<Started> {
  const db = await database(folder);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.env,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '',
      DEV_MAILBOX: '',
      PAYMENT_GATEWAY: '',
      STAGING_TEST_GATEWAY: '',
      TRUST_PROXY: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const up = (async () => {
    for (let i = 0; i < 480; i++) {
      if (child.exitCode !== null) return false;
      try {
        if ((await fetch(`${base}/api/health`)).ok) return true;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  })();
  return { base, child, output: () => output, exited, up };
}

async function post(base: string, call: string, body: object) {
  const res = await fetch(`${base}/api/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function stop(s: Started) {
  s.child.kill('SIGTERM');
  await s.exited;
}

describe('the listening address', () => {
  it('development and test listen on this machine only unless HOST says otherwise; production on every address', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).HOST).toBe('localhost');
    expect(loadConfig({}).HOST).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'test' }).HOST).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'razorpay' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('loopback is localhost, 127.0.0.0/8 and ::1; anything else is beyond it', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'LOCALHOST'])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'example.org', '128.0.0.1'])
      expect(isLoopbackHost(h)).toBe(false);
  });

  it('the demo accounts and the dev mailbox: on at loopback, off beyond it unless said, never in production', () => {
    const dev = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'development', ...env });
    expect(demoAccountsOn(dev({}))).toBe(true);
    expect(devMailboxOn(dev({}))).toBe(true);
    expect(demoAccountsOn(dev({ HOST: '0.0.0.0' }))).toBe(false);
    expect(devMailboxOn(dev({ HOST: '0.0.0.0' }))).toBe(false);
    expect(demoAccountsOn(dev({ HOST: '0.0.0.0', SEED_DEMO: 'true' }))).toBe(true);
    expect(devMailboxOn(dev({ HOST: '0.0.0.0', DEV_MAILBOX: 'true' }))).toBe(true);
    expect(demoAccountsOn(dev({ SEED_DEMO: 'false' }))).toBe(false);
    const prod = loadConfig({
      NODE_ENV: 'production',
      PAYMENT_GATEWAY: 'razorpay',
      HOST: '127.0.0.1',
      DEV_MAILBOX: 'true',
    });
    expect(demoAccountsOn(prod)).toBe(false);
    expect(devMailboxOn(prod)).toBe(false);
  });
});

describe('X-Forwarded-For is believed from nobody unless TRUST_PROXY names the proxy', () => {
  it('failed logins from one local process with rotating forged addresses meet the per-address limit', async () => {
    // LOGIN_RATE_LIMIT 2: an address has 6 attempts a window (each on another account, so the per-account limit never bites)
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '2' });
    try {
      const attempt = (n: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { 'x-forwarded-for': `203.0.113.${n}` },
          payload: { email: `nobody-${n}@example.test`, password: 'Wrong@12345', is_previous: true },
        });
      for (let n = 1; n <= 6; n++) expect((await attempt(n)).statusCode).toBe(422);
      const last = await attempt(7);
      expect(last.statusCode).toBe(429);
      expect(last.json().message).toBe(MSG.tooManyAttempts);
    } finally {
      await t.close();
    }
  }, 300_000);

  it('with TRUST_PROXY=loopback (a proxy on this machine) the forwarded address counts', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: 'loopback' });
    try {
      for (let n = 1; n <= 7; n++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { 'x-forwarded-for': `203.0.113.${n}` },
          payload: { email: `nobody-${n}@example.test`, password: 'Wrong@12345', is_previous: true },
        });
        expect(res.statusCode).toBe(422);
      }
    } finally {
      await t.close();
    }
  }, 300_000);
});

describe('start-up matrix (docs/operations.md, Before going live)', () => {
  it('production without a real payment gateway refuses to start, naming the setting and the checklist', async () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAYMENT_GATEWAY/);
    const s = await start({ NODE_ENV: 'production' }, 'no-gateway');
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('PAYMENT_GATEWAY');
    expect(s.output()).toContain('STAGING_TEST_GATEWAY=true');
    expect(s.output()).toContain(CHECKLIST);
  }, 240_000);

  it('production on the host-account lab engine (LAB_PROVIDER=local) refuses to start, and its labs refuse to run', async () => {
    const s = await start(
      { NODE_ENV: 'production', STAGING_TEST_GATEWAY: 'true', LAB_PROVIDER: 'local' },
      'prod-local',
    );
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('LAB_PROVIDER=local runs labs as accounts on the server itself');
    expect(s.output()).toContain('refused in production');
    const t = await createTestApp({ NODE_ENV: 'production', STAGING_TEST_GATEWAY: 'true', LAB_PROVIDER: 'local' });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json().labs).toMatchObject({ engine: 'local', ready: false, problem: LOCAL_ENGINE_REFUSED });
    } finally {
      await t.close();
    }
  }, 240_000);

  it('production asked to seed demo data refuses to start', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', STAGING_TEST_GATEWAY: 'true', SEED_DEMO: 'true' })).toThrow(
      /SEED_DEMO: .*Before going live/,
    );
  });

  it('production on a database that holds the demo accounts with their published password refuses to start', async () => {
    const folder = 'prod-demo-data';
    const db = await database(folder);
    // the demo data seeded before (a development start on the same database)
    const before = await openDatabase(db.url);
    await before.migrate();
    await seedDemo(before.db);
    await before.close();
    const s = await start(
      {
        NODE_ENV: 'production',
        STAGING_TEST_GATEWAY: 'true',
        DATA_DIR: db.dataDir,
        DATABASE_URL: db.env,
      },
      `${folder}-unused`,
    );
    expect(await s.up).toBe(false);
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('admin@demo.test');
    expect(s.output()).toContain('published demo password in production');
    expect(s.output()).toContain(CHECKLIST);
  }, 240_000);

  it('staging: production with STAGING_TEST_GATEWAY=true warns at start-up, and /api/health names the test gateway', async () => {
    const t = await createTestApp({ NODE_ENV: 'production', STAGING_TEST_GATEWAY: 'true', HOST: '127.0.0.1' });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json().payments).toBe('test');
      const verdict = await startupVerdict(t.deps.config, t.deps.db, t.deps.secrets);
      expect(verdict.refusals).toEqual([]);
      expect(verdict.warnings.join('\n')).toContain('the test payment gateway is in use');
      // production has no dev mailbox
      expect((await t.post('dev/mailbox', {})).status).toBe(404);
    } finally {
      await t.close();
    }
  }, 300_000);

  it('development bound to 0.0.0.0: no demo accounts, no dev mailbox, no warning needed', async () => {
    const s = await start({ NODE_ENV: 'development', HOST: '0.0.0.0' }, 'dev-open');
    expect(await s.up).toBe(true);
    expect((await post(s.base, 'dev/mailbox', {})).status).toBe(404);
    expect(
      (await post(s.base, 'login', { email: 'admin@demo.test', password: DEMO_PASSWORD, is_previous: true })).status,
    ).toBe(422);
    expect(s.output()).not.toContain('Demo logins');
    await stop(s);
  }, 240_000);

  it('development bound to 0.0.0.0 with SEED_DEMO=true and DEV_MAILBOX=true: both on, each with a warning', async () => {
    const s = await start(
      { NODE_ENV: 'development', HOST: '0.0.0.0', SEED_DEMO: 'true', DEV_MAILBOX: 'true' },
      'dev-said',
    );
    expect(await s.up).toBe(true);
    expect((await post(s.base, 'dev/mailbox', {})).status).toBe(200);
    expect(
      (await post(s.base, 'login', { email: 'admin@demo.test', password: DEMO_PASSWORD, is_previous: true })).status,
    ).toBe(200);
    expect(s.output()).toContain('WARNING: SEED_DEMO=true while listening on 0.0.0.0');
    expect(s.output()).toContain('WARNING: DEV_MAILBOX=true while listening on 0.0.0.0');
    expect(s.output()).toContain(CHECKLIST);
    await stop(s);
  }, 240_000);

  it('a first start on a fresh database logs no failure: the background tasks wait for the migrations', async () => {
    const s = await start({ NODE_ENV: 'development', LAB_PROVIDER: 'memory', LOG_LEVEL: 'info' }, 'first-start');
    try {
      expect(await s.up).toBe(true);
      // the tasks run once the database is prepared: give them a moment to report
      await new Promise((r) => setTimeout(r, 1500));
      expect(s.output()).not.toMatch(
        /does not exist|"level":50|catch-up failed|reconciliation failed|trainings failed/,
      );
    } finally {
      await stop(s);
    }
  }, 240_000);

  it('production on a local container engine: a kernel key quota too small for a class is told at start-up, with the setting', async () => {
    const t = await createTestApp({ NODE_ENV: 'production', STAGING_TEST_GATEWAY: 'true', HOST: '127.0.0.1' });
    try {
      const config = { ...t.deps.config, LAB_PROVIDER: 'container' as const };
      const stock = await startupVerdict(config, t.deps.db, t.deps.secrets, async () => ({
        maxkeys: 200,
        maxbytes: 20_000,
      }));
      expect(stock.refusals).toEqual([]);
      expect(stock.warnings.join('\n')).toContain(
        "Note: this lab host's kernel key quota (kernel.keys.maxkeys 200, maxbytes 20000) holds 33 running labs with their terminals and desktops; starts past it are refused. Raise it: sysctl kernel.keys.maxkeys=2000 kernel.keys.maxbytes=2000000",
      );
      // exactly a class of 100 (600 keys of 70 bytes) is enough; one key less is not
      const enough = await startupVerdict(config, t.deps.db, t.deps.secrets, async () => ({
        maxkeys: 600,
        maxbytes: 42_000,
      }));
      expect(enough.warnings.join('\n')).not.toContain('kernel key quota');
      const short = await startupVerdict(config, t.deps.db, t.deps.secrets, async () => ({
        maxkeys: 599,
        maxbytes: 42_000,
      }));
      expect(short.warnings.join('\n')).toContain('holds 99 running labs');
      // another engine does not run labs on this kernel
      const other = await startupVerdict(
        { ...config, LAB_PROVIDER: 'memory' },
        t.deps.db,
        t.deps.secrets,
        async () => ({
          maxkeys: 200,
          maxbytes: 20_000,
        }),
      );
      expect(other.warnings.join('\n')).not.toContain('kernel key quota');
    } finally {
      await t.close();
    }
  }, 300_000);

  it('development on its default address (loopback): the mailbox, and nothing to warn about', async () => {
    const t = await createTestApp({ NODE_ENV: 'development' });
    try {
      expect(t.deps.config.HOST).toBe('localhost');
      expect((await t.post('dev/mailbox', {})).status).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().payments).toBe('test');
      expect(await startupVerdict(t.deps.config, t.deps.db, t.deps.secrets)).toEqual({ refusals: [], warnings: [] });
    } finally {
      await t.close();
    }
  }, 300_000);
});
