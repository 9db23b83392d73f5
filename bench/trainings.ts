/**
 * Hot list reads: one provider tenant with 2,000 trainings (BENCH_TRAININGS, e.g. 100000; half
 * upcoming, half ended) and 50,000 enrolments (2,000 learners × 25 trainings), seeded with bulk
 * INSERT … SELECT. Measures the first page (the list convention: 20 rows and the total) of
 * /api/all-trainings and /api/get-all-lp-users (as the provider) and /api/lpu/get-trainings (as one
 * learner enrolled in 25) through the full stack (session check, validation, JSON).
 * Two references in the same run, same connections: the framework ceiling (a bare Fastify route
 * answering a one-row primary-key query: what no list can beat on this machine) and the same page
 * query as plain SQL behind a bare route (what the stack adds to the query). The upcoming list is
 * measured twice: as read, and while a training of the tenant is renamed every 100 ms
 * (BENCH_WRITE_EVERY_MS), each write ending its kept answer (decision 0050; ANSWER_CACHE_SECONDS=0
 * measures every call reading the database). The page queries'
 * plans (EXPLAIN ANALYZE) are printed first. 64 connections by default (BENCH_CONNECTIONS).
 *
 *   npx tsx bench/trainings.ts                    (PGlite in memory)
 *   DATABASE_URL=postgres://… npx tsx bench/trainings.ts
 *   BENCH_TRAININGS=100000 DATABASE_URL=postgres://… npx tsx bench/trainings.ts
 */
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { closeDeps } from '../apps/server/src/bootstrap';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import {
  BENCH_PASSWORD,
  benchDeps,
  CONNECTIONS,
  ceilingSql,
  DURATION,
  insertProvider,
  load,
  loadAverage,
  paced,
  rowsOf,
  STEADY_RATE,
} from './list-load';

const TRAININGS = Number(process.env.BENCH_TRAININGS ?? 2_000);
const LEARNERS = 2_000;
const PER_LEARNER = 25;
/** how often the churn row writes a training while it measures the list */
const WRITE_EVERY_MS = Number(process.env.BENCH_WRITE_EVERY_MS ?? 100);

async function main() {
  const { config, deps } = await benchDeps();
  const db = deps.db;
  const hash = await hashPassword(BENCH_PASSWORD);
  const tag = Date.now().toString(36);

  const started = Date.now();
  const pid = await insertProvider(db, `bench-provider-${tag}`, hash);
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

  // The same queries as the domain, written as plain SQL: a plain LIMIT, the capped count selected
  // beside the page's rows (one statement, decision 0049); the count is also planned on its own below.
  const upcomingWhere = sql`t.owner_user_id = ${pid} and t.status in (0, 1) and not t.past and t.end_date >= now()`;
  const allTrainingsSql = sql`
    select t.*, (select count(*)::int from training_users tu where tu.training_id = t.id) as total_participants,
           (select count(*)::int from syllabus_topics st where st.training_id = t.id) as "totalTopics",
           (select count(*)::int from (select 1 from trainings t where ${upcomingWhere} limit 1021) capped) as capped_total
    from trainings t where ${upcomingWhere}
    order by t.start_date, t.id limit 20`;
  const allTrainingsCountSql = sql`
    select count(*)::int as n from (select 1 from trainings t where ${upcomingWhere} limit 1021) capped`;
  const myTrainingsSql = sql`
    select t.id, t.name, t.slug, t.link, t.start_date, t.end_date, t.status, tu.is_download_certificate,
           (select count(*)::int from syllabus_topics st where st.training_id = t.id) as "totalTopics",
           count(*) over () as total
    from training_users tu join trainings t on t.id = tu.training_id
    where tu.user_id = ${learner!.id} order by t.start_date, t.id limit 20`;
  const usersSql = sql`
    select u.* from users u
    where u.provider_id = ${pid} and 'provider_user' = any(u.roles) order by u.id desc limit 20`;

  for (const [name, query] of [
    ['upcoming trainings, first page', allTrainingsSql],
    ['upcoming trainings, the capped count alone', allTrainingsCountSql],
    ['tenant’s users, first page', usersSql],
  ] as const) {
    const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, buffers) ${query}`));
    console.log(`\nEXPLAIN ANALYZE: ${name}`);
    for (const line of plan) console.log(`  ${Object.values(line)[0]}`);
  }

  const bare = Fastify();
  bare.post('/ceiling', async () => ({ list: rowsOf(await db.execute(ceilingSql(pid))) }));
  bare.post('/all', async () => {
    const list = rowsOf<{ capped_total: number }>(await db.execute(allTrainingsSql));
    return { list, total: list[0]?.capped_total ?? 0 };
  });
  bare.post('/mine', async () => ({ list: rowsOf(await db.execute(myTrainingsSql)) }));
  bare.post('/users', async () => ({ list: rowsOf(await db.execute(usersSql)) }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const app = await buildApp(deps);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = async (email: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: BENCH_PASSWORD } });
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

  /** Runs measure() while one training of the tenant is renamed every WRITE_EVERY_MS. */
  const whileWriting = async <T>(measure: () => Promise<T>): Promise<T> => {
    let n = 0;
    const writer = setInterval(() => {
      void db.execute(sql`update trainings set name = ${`Training renamed ${++n}`}
                          where id = (select min(id) from trainings where owner_user_id = ${pid})`);
    }, WRITE_EVERY_MS);
    try {
      return await measure();
    } finally {
      clearInterval(writer);
      console.log(`(${n} writes during the run)`);
    }
  };

  // a short run of each server first: the first seconds of a process are its JIT warming up
  await load(`${bareUrl}/ceiling`, '{}', {}, CONNECTIONS, 2);
  await load(`${appUrl}/api/all-trainings`, '{}', { authorization: `Bearer ${providerToken}` }, CONNECTIONS, 2);
  const ceiling = await load(`${bareUrl}/ceiling`, '{}');
  // the issue's reference: the server's own lightest call (the framework and a database ping)
  const health = await load(`${appUrl}/api/health`, '');
  const rows = [
    ['bare Fastify + SQL: upcoming trainings of the tenant', await load(`${bareUrl}/all`, '{}')],
    [
      '/api/all-trainings (provider)',
      await load(`${appUrl}/api/all-trainings`, '{}', { authorization: `Bearer ${providerToken}` }),
    ],
    // the kept answer ended by a write to the tenant's trainings every WRITE_EVERY_MS (decision 0050)
    ['bare Fastify + SQL: upcoming trainings of the tenant', await load(`${bareUrl}/all`, '{}')],
    [
      `/api/all-trainings (provider), a training renamed every ${WRITE_EVERY_MS} ms`,
      await whileWriting(() => load(`${appUrl}/api/all-trainings`, '{}', { authorization: `Bearer ${providerToken}` })),
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
    `\nDatabase: ${deps.database.kind}; ${CONNECTIONS} connections, ${DURATION} s each; session cache ${config.SESSION_CACHE_SECONDS} s; answer cache ${config.ANSWER_CACHE_SECONDS} s; load average ${loadAverage()}`,
  );
  console.log(`${TRAININGS} trainings in the tenant`);
  const pct = (m: { rps: number }, of: { rps: number }) => `${Math.round((m.rps / of.rps) * 100)} %`;
  console.log(
    '| endpoint (first page) | req/s | p50 ms | p99 ms | errors | of the ceiling | of /api/health | of the same SQL |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ceiling: bare Fastify + one-row primary-key query | ${ceiling.rps} | ${ceiling.p50} | ${ceiling.p99} | ${ceiling.errors} | 100 % | | |`,
  );
  console.log(
    `| /api/health (framework + database ping) | ${health.rps} | ${health.p50} | ${health.p99} | ${health.errors} | ${pct(health, ceiling)} | 100 % | |`,
  );
  rows.forEach(([name, m], i) => {
    const baseline = i % 2 === 1 ? rows[i - 1]![1] : null;
    const share = baseline ? pct(m, baseline) : '';
    const ofHealth = baseline ? pct(m, health) : '';
    console.log(
      `| ${name} | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} | ${pct(m, ceiling)} | ${ofHealth} | ${share} |`,
    );
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
    const b = await paced(bareTarget, {});
    const a = await paced(appTarget, { authorization: `Bearer ${token}` });
    console.log(`| ${name} | ${b.p50} | ${b.p99} | ${a.p50} | ${a.p99} | ${a.errors + b.errors} |`);
  }

  await app.close();
  await bare.close();
  await closeDeps(deps);
}

void main();
