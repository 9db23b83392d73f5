import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { PG_BIN, REDIS_SERVER } from './prerequisites';

/**
 * The operator's bad day, on processes: two server instances (tsx src/main.ts, production mode)
 * sharing one PostgreSQL and one Redis, under a mixed load of writes and reads through both. The
 * PostgreSQL is a throwaway cluster of this test's own (initdb in a temporary folder, on a free
 * port), so that restarting and stopping it touches nobody else; Redis likewise.
 *
 * - Start-up before the database: both instances listen and wait (liveness 200, readiness 503 with
 *   Retry-After), then become ready once it starts.
 * - A fast restart, then a 5-second stop: no process exits; every answer is 2xx or 503 with
 *   Retry-After; the first 2xx comes within 5 s of the database's return; every acknowledged write
 *   is there exactly once, and every write stored has its one audit row.
 * - SIGKILL of one instance mid-write: the other serves on, and takes the dead one's job over within a minute.
 */
const ADMIN = { email: 'faults-admin@example.test', password: 'Faults#Admin2026' };
const work = mkdtempSync(path.join(tmpdir(), 'tl-faults-'));
const children: ChildProcess[] = [];
const asRoot = process.getuid?.() === 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PostgreSQL refuses to run as root: its commands run as the postgres account then. */
function pgCommand(bin: string, args: string[]): void {
  const command = path.join(PG_BIN, bin);
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

let pgPort = 0;
let pgData = '';
const pgCtl = (...args: string[]) =>
  pgCommand('pg_ctl', [
    '-D',
    pgData,
    '-l',
    path.join(pgData, '..', 'postgres.log'),
    '-o',
    `-p ${pgPort} -k ${path.dirname(pgData)} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ...args,
  ]);

interface Instance {
  name: string;
  base: string;
  child: ChildProcess;
  exitCode: () => number | null;
  stderr: () => string;
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-20_000);
  });
  children.push(child);
  return { name, base, child, exitCode: () => child.exitCode, stderr: () => stderr };
}

async function until(what: string, check: () => Promise<boolean>, ms = 180_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

let a: Instance;
let b: Instance;
let databaseUrl = '';
let redis: ChildProcess | undefined;

beforeAll(async () => {
  // the throwaway PostgreSQL: initialised now, started only after the servers (they must wait for it)
  const pgDir = path.join(work, 'pg');
  mkdirSync(pgDir);
  if (asRoot) {
    chmodSync(work, 0o755);
    chownSync(pgDir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  }
  pgData = path.join(pgDir, 'data');
  pgPort = await freePort();
  pgCommand('initdb', ['-D', pgData, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;

  const redisPort = await freePort();
  redis = spawn(
    REDIS_SERVER,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  children.push(redis);

  const env = {
    NODE_ENV: 'production',
    // no real gateway in a test: the test one, as on a staging site
    STAGING_TEST_GATEWAY: 'true',
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    DATA_DIR: path.join(work, 'data'),
    FIELD_ENCRYPTION_KEYS: `faults:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT: '100000',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  };
  [a, b] = await Promise.all([startInstance('A', env), startInstance('B', env)]);
}, 300_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  try {
    if (pgData) pgCtl('stop', '-m', 'immediate', '-w');
  } catch {
    /* not running */
  }
  rmSync(work, { recursive: true, force: true });
});

/** One answer of the load: when it came, what it was. */
interface Answer {
  instance: string;
  kind: 'write' | 'read';
  startedAt: number;
  at: number;
  status: number;
  retryAfter: string | null;
  /** the transport failed: the instance did not answer at all */
  error?: string;
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, is_previous: true }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return ((await res.json()) as { success: { token: string } }).success.token;
}

/** Writers (a new category each) and readers (the category list) on each instance until stopped. */
function mixedLoad(instances: { instance: Instance; token: string }[], tag: string) {
  const answers: Answer[] = [];
  const acknowledged: string[] = [];
  let stopped = false;
  let n = 0;
  const one = async (instance: Instance, token: string, kind: Answer['kind']) => {
    const name = `${tag} ${instance.name} ${n++}`;
    const startedAt = Date.now();
    try {
      const res = await fetch(`${instance.base}/api/${kind === 'write' ? 'create-category' : 'category-list'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(kind === 'write' ? { name } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      answers.push({
        instance: instance.name,
        kind,
        startedAt,
        at: Date.now(),
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
      });
      if (kind === 'write' && res.status === 200) acknowledged.push(name);
    } catch (e) {
      answers.push({
        instance: instance.name,
        kind,
        startedAt,
        at: Date.now(),
        status: 0,
        retryAfter: null,
        error: String(e),
      });
      await sleep(100);
    }
  };
  const loop = async (instance: Instance, token: string, kind: Answer['kind']) => {
    while (!stopped) {
      await one(instance, token, kind);
      await sleep(20);
    }
  };
  const running = instances.flatMap(({ instance, token }) => [
    loop(instance, token, 'write'),
    loop(instance, token, 'write'),
    loop(instance, token, 'read'),
  ]);
  return {
    answers,
    acknowledged,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Every acknowledged write is stored exactly once. */
/**
 * Inserts a job as the killed instance had claimed it just before dying: running, one attempt, its
 * lease (JOB_LEASE_SECONDS, 30 s) ending 30 s from now. Its kind runs quickly anywhere (an idle
 * check of a lab that does not exist). Answers its id.
 */
async function holdJobAsIfClaimed(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>(
      `insert into jobs (kind, payload, status, attempts, run_at)
       values ('lab-idle-check', '{"vm_id": -1}'::jsonb, 'running', 1, now() + interval '30 seconds') returning id`,
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

async function jobStatus(id: number): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string }>('select status from jobs where id = $1', [id]);
    return rows[0]?.status;
  } finally {
    await client.end();
  }
}

async function expectStoredOnce(names: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; n: number }>(
      'select name, count(*)::int as n from categories where name = any($1) group by name',
      [names],
    );
    const counts = new Map(rows.map((r) => [r.name, r.n]));
    const wrong = names.filter((name) => counts.get(name) !== 1);
    expect(wrong, 'acknowledged writes missing or doubled').toEqual([]);
    // each change has its audit row, committed with it: the acknowledged ones, and any whose answer
    // was lost to the fault (a 503 may come after the commit)
    const audit = await client.query<{ name: string; n: number }>(
      `select c.name, count(a.id)::int as n from categories c
         left join audit_log a on a.action = 'create-category' and a.target_id = c.id::text
       where c.name = any($1) or c.name like any($2)
       group by c.name`,
      [names, [...new Set(names.map((name) => `${name.split(' ')[0]} %`))]],
    );
    const unaudited = audit.rows.filter((r) => r.n !== 1).map((r) => `${r.name}: ${r.n} audit rows`);
    expect(unaudited, 'writes without exactly one audit row').toEqual([]);
    expect(audit.rows.length).toBeGreaterThanOrEqual(names.length);
  } finally {
    await client.end();
  }
}

/** The first 2xx of a request sent after `back`, from each instance, within 5 s of it. */
function expectBackWithin5s(answers: Answer[], back: number, instances: Instance[]): void {
  for (const instance of instances) {
    const first = answers
      .filter((x) => x.instance === instance.name && x.startedAt >= back && x.status >= 200 && x.status < 300)
      .sort((x, y) => x.at - y.at)[0];
    expect(first, `instance ${instance.name} answered no 2xx after the database came back`).toBeDefined();
    console.log(`instance ${instance.name}: first 2xx ${first!.at - back} ms after the database came back`);
    expect(first!.at - back, `instance ${instance.name}: first 2xx after the database came back (ms)`).toBeLessThan(
      5000,
    );
  }
}

/** Every answer is 2xx, or 503 with Retry-After; none is a 500 or a refused connection. */
function expectOnly2xxOr503(answers: Answer[]): void {
  const bad = answers.filter(
    (x) => !((x.status >= 200 && x.status < 300) || (x.status === 503 && x.retryAfter !== null)),
  );
  expect(bad.slice(0, 5), `${bad.length} answers were neither 2xx nor 503 with Retry-After`).toEqual([]);
}

describe('PostgreSQL restarts and stops under load, two instances', () => {
  it('instances started before the database wait for it: alive, not ready (Retry-After), then ready', async () => {
    for (const instance of [a, b]) {
      // two tsx start-ups side by side take minutes on a loaded machine
      await until(`${instance.name} to listen`, async () => (await fetch(`${instance.base}/api/live`)).ok, 400_000);
      const ready = await fetch(`${instance.base}/api/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
    }
    await sleep(2000);
    expect([a.exitCode(), b.exitCode()], a.stderr() + b.stderr()).toEqual([null, null]);

    pgCtl('start', '-w', '-t', '60');
    for (const instance of [a, b]) {
      await until(`${instance.name} to be ready`, async () => (await fetch(`${instance.base}/api/ready`)).ok);
    }
  }, 600_000);

  it('a fast restart and a 5-second stop: no exit, only 2xx or 503 with Retry-After, back within 5 s, every acknowledged write once', async () => {
    // one session for both (an account has one live session): the instances share it through the database
    const token = await login(a.base);
    const load = mixedLoad(
      [
        { instance: a, token },
        { instance: b, token },
      ],
      'Restart',
    );
    await sleep(3000);
    pgCtl('restart', '-m', 'fast', '-w', '-t', '60');
    const backAfterRestart = Date.now();
    await sleep(6000);
    pgCtl('stop', '-m', 'fast', '-w', '-t', '60');
    await sleep(5000);
    pgCtl('start', '-w', '-t', '60');
    const backAfterStop = Date.now();
    await sleep(6000);
    await load.stop();

    expect([a.exitCode(), b.exitCode()], a.stderr() + b.stderr()).toEqual([null, null]);
    const count = (f: (x: Answer) => boolean) => load.answers.filter(f).length;
    console.log(
      `${load.answers.length} answers: ${count((x) => x.status === 200)} 200, ${count((x) => x.status === 503)} 503; ${load.acknowledged.length} writes acknowledged`,
    );
    expectOnly2xxOr503(load.answers);
    // the outage was seen (503s), and the load wrote throughout
    expect(load.answers.some((x) => x.status === 503)).toBe(true);
    expect(load.acknowledged.length).toBeGreaterThan(10);
    expectBackWithin5s(load.answers, backAfterRestart, [a, b]);
    expectBackWithin5s(load.answers, backAfterStop, [a, b]);
    await expectStoredOnce(load.acknowledged);
  }, 300_000);

  it("SIGKILL of one instance mid-write: the other serves on, every acknowledged write once, the dead one's job done within a minute", async () => {
    const token = await login(b.base);
    const survivor = mixedLoad([{ instance: b, token }], 'Survivor');
    const victim = mixedLoad([{ instance: a, token }], 'Killed');
    await until('writes through A', async () => victim.acknowledged.length >= 5, 60_000);
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    // a job A held when it died: claimed (running), its lease still running on the database's clock
    const job = await holdJobAsIfClaimed();
    await sleep(4000);
    await victim.stop();
    const before = survivor.answers.length;
    await sleep(2000);
    await survivor.stop();

    expect(b.exitCode(), b.stderr()).toBeNull();
    const afterKill = survivor.answers.slice(before);
    expect(afterKill.length).toBeGreaterThan(0);
    expect(afterKill.filter((x) => x.status !== 200)).toEqual([]);
    expectOnly2xxOr503(survivor.answers);
    await expectStoredOnce([...survivor.acknowledged, ...victim.acknowledged]);
    // the dead instance's job is taken over by the survivor once its lease passes: within a minute
    await until(
      'the killed instance’s job done by the survivor',
      async () => (await jobStatus(job)) === 'done',
      75_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(60_000);
  }, 180_000);
});
