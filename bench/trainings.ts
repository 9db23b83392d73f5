/**
 * Hot list reads: one provider tenant with 2,000 trainings (half upcoming, half ended) and 50,000
 * enrolments (2,000 learners × 25 trainings), seeded with bulk INSERT … SELECT. Measures the first
 * page (the list convention: 20 rows and the total) of /api/all-trainings and /api/get-all-lp-users
 * (as the provider) and /api/lpu/get-trainings (as one learner enrolled in 25) through the full stack
 * (session check, validation, JSON), against a bare Fastify route running the same page query as
 * plain SQL on the same database, in the same run. 64 connections by default (BENCH_CONNECTIONS).
 *
 *   npx tsx bench/trainings.ts                    (PGlite in memory)
 *   DATABASE_URL=postgres://… npx tsx bench/trainings.ts
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { users } from '../apps/server/src/db/schema';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import { closeDeps, createDeps } from '../apps/server/src/platform/bootstrap';
import { loadConfig } from '../apps/server/src/platform/config';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const TRAININGS = 2_000;
const LEARNERS = 2_000;
const PER_LEARNER = 25;

/**
 * Latency under a steady load below saturation: at full throttle 64 connections queue behind each
 * other, so p99 there is the queue (Little's law: 64 / req/s), not the call. The p99 goal is read
 * at this offered rate instead, requests sent evenly spaced (an open loop: autocannon's own rate
 * limit sends each second's requests in one burst), the same for the baseline and the endpoint.
 */
const STEADY_RATE = Number(process.env.BENCH_RATE ?? 100);

async function paced(url: string, headers: Record<string, string>, rate: number) {
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

async function load(url: string, body: string, headers: Record<string, string> = {}) {
  const r = await autocannon({
    url,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** drizzle's execute() result is driver-typed; both drivers answer `{ rows }`. */
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

async function main() {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000000',
    // SESSION_CACHE_SECONDS=0 measures every call with its session query (decision 0024)
    ...(process.env.SESSION_CACHE_SECONDS ? { SESSION_CACHE_SECONDS: process.env.SESSION_CACHE_SECONDS } : {}),
  });
  const deps = await createDeps(config, process.env.DATABASE_URL ?? 'memory://');
  const db = deps.db;
  const hash = await hashPassword('Bench@12345');
  const tag = Date.now().toString(36);

  const started = Date.now();
  const [provider] = await db
    .insert(users)
    .values({
      slug: `bench-provider-${tag}`,
      first_name: 'Bench',
      last_name: 'Provider',
      email: `bench-provider-${tag}@bench.test`,
      password_hash: hash,
      roles: ['provider'],
      user_type: 3,
    })
    .returning({ id: users.id });
  const pid = provider!.id;
  await db.execute(sql`
    insert into users (slug, first_name, last_name, email, password_hash, roles, user_type, provider_id)
    select 'bench-learner-' || ${tag} || '-' || g, 'Learner', g::text, 'bench-learner-' || ${tag} || '-' || g || '@bench.test',
           ${hash}, array['provider_user'], 4, ${pid}
    from generate_series(1, ${LEARNERS}) g`);
  // half upcoming (ending in the future), half ended
  await db.execute(sql`
    insert into trainings (slug, link, name, start_date, end_date, total_training_day, number_of_participants,
                           description, requirements, owner_user_id, created_by)
    select 'bench-training-' || ${tag} || '-' || g, md5(${tag} || g::text), 'Training ' || g,
           now() + ((g - ${TRAININGS / 2}) || ' days')::interval, now() + ((g - ${TRAININGS / 2} + 3) || ' days')::interval,
           3, 50, 'Benchmark training', array['A laptop'], ${pid}, ${pid}
    from generate_series(1, ${TRAININGS}) g`);
  // learner i is in trainings i, i+80, i+160, … (25 of them); each training gets 25 learners
  await db.execute(sql`
    with l as (select id, row_number() over (order by id) - 1 as n from users where provider_id = ${pid}),
         t as (select id, row_number() over (order by id) - 1 as n from trainings where owner_user_id = ${pid})
    insert into training_users (training_id, user_id)
    select t.id, l.id from l cross join generate_series(0, ${PER_LEARNER - 1}) k
    join t on t.n = (l.n + k * ${TRAININGS / PER_LEARNER}) % ${TRAININGS}`);
  await db.execute(sql`
    insert into syllabus_topics (training_id, session_topic)
    select id, 'Topic ' || k from trainings cross join generate_series(1, 3) k where owner_user_id = ${pid}`);
  // vacuum sets the visibility map (as autovacuum would), so the counts are index-only scans
  await db.execute(sql`vacuum analyze`);
  const [{ n } = { n: 0 }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from training_users tu join trainings t on t.id = tu.training_id
                          where t.owner_user_id = ${pid}`),
  );
  console.log(`Seeded ${TRAININGS} trainings, ${n} enrolments in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const [learner] = rowsOf<{ id: number; email: string }>(
    await db.execute(sql`select id, email from users where provider_id = ${pid} order by id limit 1`),
  );

  // The same queries as the domain, written as plain SQL.
  const allTrainingsSql = sql`
    select t.*, (select count(*)::int from training_users tu where tu.training_id = t.id) as total_participants,
           (select count(*)::int from syllabus_topics st where st.training_id = t.id) as "totalTopics",
           count(*) over () as total
    from trainings t where t.owner_user_id = ${pid} and t.status in (0, 1) and t.end_date >= now()
    order by t.start_date, t.id limit 20`;
  const myTrainingsSql = sql`
    select t.id, t.name, t.slug, t.link, t.start_date, t.end_date, t.status, tu.is_download_certificate,
           (select count(*)::int from syllabus_topics st where st.training_id = t.id) as "totalTopics",
           count(*) over () as total
    from training_users tu join trainings t on t.id = tu.training_id
    where tu.user_id = ${learner!.id} order by t.start_date, t.id limit 20`;
  const usersSql = sql`
    select u.*, count(*) over () as total from users u
    where u.provider_id = ${pid} and 'provider_user' = any(u.roles) order by u.id desc limit 20`;

  const bare = Fastify();
  bare.post('/all', async () => ({ list: rowsOf(await db.execute(allTrainingsSql)) }));
  bare.post('/mine', async () => ({ list: rowsOf(await db.execute(myTrainingsSql)) }));
  bare.post('/users', async () => ({ list: rowsOf(await db.execute(usersSql)) }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const app = await buildApp(deps);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = async (email: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Bench@12345' } });
    return res.json().success.token as string;
  };
  const providerToken = await login(`bench-provider-${tag}@bench.test`);
  const learnerToken = await login(learner!.email);
  const check = await app.inject({
    method: 'POST',
    url: '/api/all-trainings',
    headers: { authorization: `Bearer ${providerToken}` },
  });
  const mine = await app.inject({
    method: 'POST',
    url: '/api/lpu/get-trainings',
    headers: { authorization: `Bearer ${learnerToken}` },
  });
  console.log(
    `/all-trainings page: ${check.json().list.length} of ${check.json().total}; /lpu/get-trainings page: ${mine.json().list.length} of ${mine.json().total}`,
  );

  const rows = [
    ['bare Fastify + SQL: upcoming trainings of the tenant', await load(`${bareUrl}/all`, '{}')],
    [
      '/api/all-trainings (provider)',
      await load(`${appUrl}/api/all-trainings`, '{}', { authorization: `Bearer ${providerToken}` }),
    ],
    ['bare Fastify + SQL: first page of the tenant’s users', await load(`${bareUrl}/users`, '{}')],
    [
      '/api/get-all-lp-users (provider)',
      await load(`${appUrl}/api/get-all-lp-users`, '{}', { authorization: `Bearer ${providerToken}` }),
    ],
    ['bare Fastify + SQL: one learner’s enrolments', await load(`${bareUrl}/mine`, '{}')],
    [
      '/api/lpu/get-trainings (learner)',
      await load(`${appUrl}/api/lpu/get-trainings`, '{}', { authorization: `Bearer ${learnerToken}` }),
    ],
  ] as const;
  console.log(
    `\nDatabase: ${deps.database.kind}; ${CONNECTIONS} connections, ${DURATION} s each; session cache ${config.SESSION_CACHE_SECONDS} s; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| endpoint (first page) | req/s | p50 ms | p99 ms | errors | of baseline |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  rows.forEach(([name, m], i) => {
    const baseline = i % 2 === 1 ? rows[i - 1]![1] : null;
    const share = baseline ? `${Math.round((m.rps / baseline.rps) * 100)} %` : 'baseline';
    console.log(`| ${name} | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} | ${share} |`);
  });

  const targets = [
    ['upcoming trainings', `${bareUrl}/all`, `${appUrl}/api/all-trainings`, providerToken],
    ['tenant’s users', `${bareUrl}/users`, `${appUrl}/api/get-all-lp-users`, providerToken],
    ['learner’s enrolments', `${bareUrl}/mine`, `${appUrl}/api/lpu/get-trainings`, learnerToken],
  ] as const;
  console.log(
    `\nSteady load: ${STEADY_RATE} req/s evenly spaced, up to ${CONNECTIONS} connections, ${DURATION} s each`,
  );
  console.log('| list | baseline p50 ms | baseline p99 ms | endpoint p50 ms | endpoint p99 ms | errors |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, bareTarget, appTarget, token] of targets) {
    const b = await paced(bareTarget, {}, STEADY_RATE);
    const a = await paced(appTarget, { authorization: `Bearer ${token}` }, STEADY_RATE);
    console.log(`| ${name} | ${b.p50} | ${b.p99} | ${a.p50} | ${a.p99} | ${a.errors + b.errors} |`);
  }

  await app.close();
  await bare.close();
  await closeDeps(deps);
}

void main();
