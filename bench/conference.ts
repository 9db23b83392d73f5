/**
 * Conference signalling benchmark (loopback only, bounded counts and time):
 * 1. join-to-joined: one client at a time sends `join` and waits for `joined` (ROOM_SIZE rooms of
 *    growing size), p50/p95/max in ms;
 * 2. one room: ROOM_SIZE participants join one room (each join fans peer-joined out to everyone);
 *    time to fill, then one chat message's fan-out time to all;
 * 3. one server: ROOMS rooms × PER_ROOM participants connected at once; time and memory.
 *
 *   npx tsx bench/conference.ts           (in-process realtime, PGlite in memory)
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/conference.ts
 */

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { sessions, trainings, trainingUsers, users } from '../apps/server/src/db/schema';
import { hashToken, newToken } from '../apps/server/src/platform/auth/tokens';
import { loadConfig } from '../apps/server/src/platform/config';

interface Ws {
  send(d: string): void;
  close(): void;
  on(e: 'message', l: (raw: Buffer) => void): void;
  once(e: 'open' | 'error', l: (x?: unknown) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string) => Ws;

const ROOM_SIZE = Number(process.env.BENCH_ROOM_SIZE ?? 100);
const ROOMS = Number(process.env.BENCH_ROOMS ?? 20);
const PER_ROOM = Number(process.env.BENCH_PER_ROOM ?? 25);
const DEADLINE = Date.now() + Number(process.env.BENCH_MAX_SECONDS ?? 240) * 1000;

class Client {
  private waiters: { type: string; resolve: (m: unknown) => void }[] = [];
  constructor(readonly ws: Ws) {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { type: string };
      const i = this.waiters.findIndex((w) => w.type === m.type);
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(m);
    });
  }
  static async open(url: string) {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new Client(ws);
  }
  wait(type: string, ms = 10_000) {
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timeout waiting for ${type}`)), ms);
      this.waiters.push({
        type,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
  send(m: unknown) {
    this.ws.send(JSON.stringify(m));
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (n: number) => Math.round(n * 100) / 100;

async function main() {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: `bench-${Date.now()}:`,
  });
  const deps = await createDeps(config, process.env.DATABASE_URL ?? 'memory://');
  const app = await buildApp(deps);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `${address.replace(/^http/, 'ws')}/ws/conference`;
  const tag = randomBytes(3).toString('hex');
  const [owner] = await deps.db
    .insert(users)
    .values({
      slug: `bench-owner-${tag}`,
      first_name: 'Bench',
      last_name: 'Owner',
      email: `bench-owner-${tag}@bench.test`,
      password_hash: 'x',
      roles: ['provider'],
      user_type: 3,
    })
    .returning();

  async function learners(n: number) {
    const rows = await deps.db
      .insert(users)
      .values(
        Array.from({ length: n }, (_, i) => ({
          slug: `bench-l-${tag}-${i}-${randomBytes(2).toString('hex')}`,
          first_name: 'L',
          last_name: String(i),
          email: `bench-${tag}-${randomBytes(4).toString('hex')}@bench.test`,
          password_hash: 'x',
          roles: ['user'],
          user_type: 2,
        })),
      )
      .returning({ id: users.id });
    const tokens = rows.map(() => newToken());
    await deps.db.insert(sessions).values(
      rows.map((r, i) => ({
        user_id: r.id,
        token_hash: hashToken(tokens[i]!),
        expires_at: new Date(Date.now() + 3600_000),
      })),
    );
    return rows.map((r, i) => ({ id: r.id, token: tokens[i]! }));
  }
  async function room(people: { id: number }[]) {
    const s = randomBytes(5).toString('hex');
    const [tr] = await deps.db
      .insert(trainings)
      .values({
        slug: `bench-${s}`,
        link: `bench-${s}`,
        name: 'Bench',
        start_date: new Date(),
        end_date: new Date(Date.now() + 86400_000),
        total_training_day: 1,
        number_of_participants: people.length,
        status: 1,
        owner_user_id: owner!.id,
      })
      .returning();
    await deps.db.insert(trainingUsers).values(people.map((p) => ({ training_id: tr!.id, user_id: p.id })));
    return tr!;
  }
  async function join(token: string, slug: string) {
    const c = await Client.open(url);
    const authed = c.wait('authed');
    c.send({ type: 'auth', token });
    await authed;
    const t0 = performance.now();
    const joined = c.wait('joined');
    c.send({ type: 'join', slug });
    await joined;
    return { c, ms: performance.now() - t0 };
  }

  // 1 + 2: one room of ROOM_SIZE
  const people = await learners(ROOM_SIZE);
  const big = await room(people);
  const joinTimes: number[] = [];
  const clients: Client[] = [];
  const fill0 = performance.now();
  for (const p of people) {
    if (Date.now() > DEADLINE) break;
    const r = await join(p.token, big.slug);
    joinTimes.push(r.ms);
    clients.push(r.c);
  }
  const fillMs = performance.now() - fill0;
  const chat0 = performance.now();
  const all = clients.map((c) => c.wait('chat', 30_000));
  clients[0]!.send({ type: 'chat', text: 'fan-out probe' });
  await Promise.all(all);
  const fanoutMs = performance.now() - chat0;
  console.log(
    `realtime: ${deps.config.REDIS_URL ? 'redis' : 'in-process'}; database: ${process.env.DATABASE_URL ? 'postgres' : 'pglite'}`,
  );
  console.log(
    `one room: ${clients.length} participants joined one by one in ${ms(fillMs)} ms; join→joined p50 ${ms(pct(joinTimes, 50))} ms, p95 ${ms(pct(joinTimes, 95))} ms, max ${ms(Math.max(...joinTimes))} ms (first ${ms(joinTimes[0]!)} ms, last ${ms(joinTimes.at(-1)!)} ms)`,
  );
  console.log(`one room: chat fan-out to all ${clients.length} participants in ${ms(fanoutMs)} ms`);
  for (const c of clients) c.ws.close();
  await app.conferenceHub.settle();

  // 3: many rooms at once
  const rss0 = process.memoryUsage().rss;
  const open: Client[] = [];
  const times: number[] = [];
  const t0 = performance.now();
  for (let r = 0; r < ROOMS && Date.now() < DEADLINE; r++) {
    const ps = await learners(PER_ROOM);
    const tr = await room(ps);
    const joins = await Promise.all(ps.map((p) => join(p.token, tr.slug)));
    for (const j of joins) {
      open.push(j.c);
      times.push(j.ms);
    }
  }
  const totalMs = performance.now() - t0;
  const rss1 = process.memoryUsage().rss;
  console.log(
    `one server: ${open.length} participants in ${Math.ceil(open.length / PER_ROOM)} rooms of ${PER_ROOM} connected at once (rooms joined concurrently) in ${ms(totalMs)} ms; join→joined p50 ${ms(pct(times, 50))} ms, p95 ${ms(pct(times, 95))} ms; RSS +${Math.round((rss1 - rss0) / 1048576)} MiB (${Math.round(rss1 / 1048576)} MiB total, client sockets included)`,
  );
  for (const c of open) c.ws.close();
  await app.close();
  await closeDeps(deps);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
