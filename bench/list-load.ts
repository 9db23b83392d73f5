/**
 * What the list benches share: full-throttle load (autocannon), latency at a steady rate below
 * saturation, the framework ceiling, and reading the plans of the statements a call really runs.
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createDeps } from '../apps/server/src/bootstrap';
import { users } from '../apps/server/src/db/schema';
import { loadConfig } from '../apps/server/src/platform/config';
import type { Db } from '../apps/server/src/platform/db/client';

export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/**
 * Latency under a steady load below saturation: at full throttle 64 connections queue behind each
 * other, so p99 there is the queue (Little's law: 64 / req/s), not the call. The p99 goal is read
 * at this offered rate instead, requests sent evenly spaced (an open loop: autocannon's own rate
 * limit sends each second's requests in one burst), the same for the baseline and the endpoint.
 */
export const STEADY_RATE = Number(process.env.BENCH_RATE ?? 100);

export const BENCH_PASSWORD = 'Bench@12345';

/** The server's configuration and dependencies for a list bench, on DATABASE_URL or in memory. */
export async function benchDeps() {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000000',
    // /api/health, a reference of the list benches, asks the lab engine whether it is ready: the
    // memory engine answers at once, so the reference is the framework and one database ping
    LAB_PROVIDER: process.env.LAB_PROVIDER ?? 'memory',
    // SESSION_CACHE_SECONDS=0 measures every call with its session query (decision 0024)
    ...(process.env.SESSION_CACHE_SECONDS ? { SESSION_CACHE_SECONDS: process.env.SESSION_CACHE_SECONDS } : {}),
    // ANSWER_CACHE_SECONDS=0 measures every list call reading the database (decision 0050)
    ...(process.env.ANSWER_CACHE_SECONDS ? { ANSWER_CACHE_SECONDS: process.env.ANSWER_CACHE_SECONDS } : {}),
    // DATABASE_PREPARED_STATEMENTS=false measures PostgreSQL reads parsed and planned on every call
    ...(process.env.DATABASE_PREPARED_STATEMENTS
      ? { DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS }
      : {}),
  });
  return { config, deps: await createDeps(config, process.env.DATABASE_URL ?? 'memory://') };
}

/** A provider account (the tenant a bench seeds), signed in with BENCH_PASSWORD. */
export async function insertProvider(db: Db, name: string, passwordHash: string): Promise<number> {
  const [row] = await db
    .insert(users)
    .values({
      slug: name,
      first_name: 'Bench',
      last_name: 'Provider',
      email: `${name}@bench.test`,
      password_hash: passwordHash,
      roles: ['provider'],
      user_type: 3,
    })
    .returning({ id: users.id });
  return row!.id;
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** drizzle's execute() result is driver-typed; both drivers answer `{ rows }`. */
export const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * autocannon's own threads (BENCH_WORKERS, 1 by default): the load generator parses every answer,
 * and in the server's event loop it would take its time from the server it measures (most from the
 * lists with the largest answers).
 */
export const LOAD_WORKERS = Number(process.env.BENCH_WORKERS ?? 1);

/** autocannon at full throttle: POST `body` to `url` over `connections` for DURATION seconds. */
export async function load(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
  seconds = DURATION,
): Promise<Measured> {
  const r = await autocannon({
    url,
    // an empty body is a GET (/api/health)
    ...(body === '' ? { method: 'GET' } : { method: 'POST', body }),
    headers: { 'content-type': 'application/json', ...headers },
    connections,
    duration: seconds,
    ...(LOAD_WORKERS > 0 ? { workers: LOAD_WORKERS } : {}),
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

export async function paced(url: string, headers: Record<string, string>, rate = STEADY_RATE) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
  const total = rate * DURATION;
  const started = performance.now();
  const pending: Promise<number | null>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(one().catch(() => null));
  }
  const times = (await Promise.all(pending)).filter((t): t is number => t !== null).sort((a, b) => a - b);
  agent.destroy();
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN);
  return { p50: at(0.5), p99: at(0.99), errors: total - times.length };
}

/** The ceiling's one-row primary-key query: what no list can beat on this machine. */
export const ceilingSql = (userId: number) => sql`select id, email from users where id = ${userId}`;

interface Captured {
  text: string;
  params: unknown[];
  /** the driver's client that ran it: the plan is asked of the same connection */
  run: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
}

type QueryFn = (...a: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Runs `call` while recording the statements it sends to the database (both drivers, by wrapping
 * their query method for the duration), so the bench prints the plans of what a call really runs
 * rather than of a hand-written copy.
 */
export async function statementsOf(call: () => Promise<unknown>): Promise<Captured[]> {
  const seen: Captured[] = [];
  const targets = [pg.Client.prototype, PGlite.prototype] as unknown as { query: QueryFn }[];
  const originals = targets.map((t) => t.query);
  targets.forEach((t, i) => {
    const original = originals[i]!;
    t.query = function (this: unknown, ...args: unknown[]) {
      const [q, params] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      const text = typeof q === 'string' ? q : q?.text;
      if (typeof text === 'string') {
        const run = (t: string, p: unknown[]) => original.apply(this, [t, p]);
        seen.push({ text, params: (typeof q === 'string' ? params : (q.values ?? params)) ?? [], run });
      }
      return original.apply(this, args);
    };
  });
  try {
    await call();
  } finally {
    targets.forEach((t, i) => {
      t.query = originals[i]!;
    });
  }
  return seen;
}

/** EXPLAIN ANALYZE of each select a call ran (the session check excluded), printed. */
export async function printPlans(name: string, statements: Captured[]) {
  const selects = statements.filter((s) => /^\s*\(?\s*select/i.test(s.text) && !/from "sessions"/.test(s.text));
  for (const s of selects) {
    const plan = await s.run(`explain (analyze, buffers) ${s.text}`, s.params);
    console.log(`\nEXPLAIN ANALYZE (${name}): ${s.text.replace(/\s+/g, ' ').slice(0, 160)}…`);
    for (const r of plan.rows) console.log(`  ${String(Object.values(r)[0])}`);
  }
}
