/**
 * The class bench's stack: a throwaway PostgreSQL database, a throwaway Janus, the built server in
 * a process of its own (so its CPU and memory are its own), and everything they started undone at
 * the end, in reverse order, whether the bench passed, failed or was interrupted.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type LocalJanus, startJanus } from '../scripts/janus-local.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_DIST = process.env.BENCH_SERVER_DIST ?? path.join(ROOT, 'apps/server/dist');
export const WEB_DIST = process.env.BENCH_WEB_DIST ?? path.join(ROOT, 'apps/web/dist');
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Undo steps, run last-in first-out once. */
export class Cleanup {
  private steps: { name: string; run: () => Promise<unknown> | unknown }[] = [];
  private done = false;
  add(name: string, run: () => Promise<unknown> | unknown) {
    this.steps.push({ name, run });
  }
  async run() {
    if (this.done) return;
    this.done = true;
    for (const step of this.steps.reverse()) {
      try {
        await step.run();
      } catch (e) {
        console.error(`cleanup: ${step.name}: ${e instanceof Error ? e.message : e}`);
      }
    }
  }
}

export async function createDatabase(cleanup: Cleanup) {
  const name = `bench_class_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanup.add(`drop database ${name}`, async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  cleanup.add('database pool', () => pool.end());
  return { url: url.toString(), pool };
}

export async function janus(cleanup: Cleanup): Promise<LocalJanus> {
  const j = await startJanus({ debugLevel: 2 });
  cleanup.add('janus', () => j.stop());
  return j;
}

export interface Server {
  base: string;
  pid: number;
  /** lines the server logged at error level or above (pino: level ≥ 50) */
  errors: () => string[];
  logFile: string;
}

export async function startServer(
  cleanup: Cleanup,
  opts: { port: number; databaseUrl: string; janus: LocalJanus; labNamespace: string },
): Promise<Server> {
  const main = path.join(SERVER_DIST, 'main.js');
  if (!existsSync(main)) throw new Error(`no server build at ${main}: run npm run build`);
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error(`no web build at ${WEB_DIST}: run npm run build`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-class-'));
  cleanup.add('data dir', () => {
    // lab homes the server left mounted (DATA_DIR/lab-disks, adapters/labs/lab-disk.ts) are
    // unmounted first: a recursive delete would go through them and stop at their mount points
    const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[4] ?? '')
      .filter((target) => target.startsWith(`${dataDir}/`))
      .sort()
      .reverse();
    for (const target of mounts) execFileSync('umount', [target], { stdio: 'ignore' });
    rmSync(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${opts.port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(opts.port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: opts.databaseUrl,
      MIGRATIONS_DIR: path.join(ROOT, 'apps/server/drizzle'),
      REDIS_URL: '',
      WEB_DIST,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      LOGIN_RATE_LIMIT: '100000',
      LAB_PROVIDER: 'container',
      LAB_IMAGE_AUTOBUILD: 'false',
      LAB_NAMESPACE: opts.labNamespace,
      MEETING_PROVIDER: 'janus',
      JANUS_URL: opts.janus.url,
      JANUS_ADMIN_SECRET: opts.janus.adminKey,
      JANUS_API_SECRET: opts.janus.apiSecret ?? '',
      FIELD_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  cleanup.add('server', async () => {
    if (exited !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(timer);
  });
  const until = Date.now() + 120_000;
  for (;;) {
    if (exited !== null)
      throw new Error(`the server exited (${exited}): ${readFileSync(logFile, 'utf8').slice(-3000)}`);
    if (Date.now() > until) throw new Error('the server did not answer /api/health in 120 s');
    const ok = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const errors = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => {
        const level = /"level":(\d+)/.exec(line)?.[1];
        return level ? Number(level) >= 50 : /\bERROR\b|\bFATAL\b/.test(line);
      });
  return { base, pid: child.pid!, errors, logFile };
}

/** Every lab container and home volume of this run's namespace (what the server could not delete). */
export function removeLabs(namespace: string) {
  const filter = `label=org.trainlab.install=${namespace}`;
  const containers = execFileSync('docker', ['ps', '-aq', '--filter', filter], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  if (containers.length) execFileSync('docker', ['rm', '-f', '-v', ...containers], { stdio: 'ignore' });
  const volumes = execFileSync('docker', ['volume', 'ls', '-q', '--filter', filter], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  if (volumes.length) execFileSync('docker', ['volume', 'rm', '-f', ...volumes], { stdio: 'ignore' });
  return { containers: containers.length, volumes: volumes.length };
}
