/**
 * The public catalogue under load: the landing page and /courses (the HTML our server sends) and the
 * calls behind them (get-home-trainings, search-by-courses), against a bare Fastify route sending a
 * static file from memory in the same run. A catalogue of 1,000 public paid courses with 20,000
 * purchases (2,000 buyers × 10), seeded with bulk INSERT … SELECT.
 *
 *   npm run build -w @trainlab/web && npm run bench:catalogue -w @trainlab/bench
 *   DATABASE_URL=postgres://… npm run bench:catalogue -w @trainlab/bench
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { users } from '../apps/server/src/db/schema';
import { loadConfig } from '../apps/server/src/platform/config';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const COURSES = 1_000;
const BUYERS = 2_000;
const PER_BUYER = 10;
const WEB_DIST = path.resolve(import.meta.dirname, '../apps/web/dist');

async function load(url: string, method: 'GET' | 'POST', body?: string) {
  const r = await autocannon({
    url,
    method,
    body,
    headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function main() {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST });
  const deps = await createDeps(config, process.env.DATABASE_URL ?? 'memory://');
  const db = deps.db;
  const tag = Date.now().toString(36);
  const started = Date.now();
  const [provider] = await db
    .insert(users)
    .values({
      slug: `bench-provider-${tag}`,
      first_name: 'Bench',
      last_name: 'Provider',
      email: `bench-provider-${tag}@bench.test`,
      roles: ['provider'],
      user_type: 3,
    })
    .returning({ id: users.id });
  await db.execute(sql`
    insert into courses (slug, name, amount_paise, is_paid, is_public, description, owner_user_id, created_by)
    select 'bench-course-' || ${tag} || '-' || g, 'Course ' || g || ' on cloud operations', 49900 + g * 100, 1, 1,
           'A recorded course about topic ' || g, ${provider!.id}, ${provider!.id}
    from generate_series(1, ${COURSES}) g`);
  await db.execute(sql`
    insert into users (slug, first_name, last_name, email, roles, user_type)
    select 'bench-buyer-' || ${tag} || '-' || g, 'Buyer', g::text, 'bench-buyer-' || ${tag} || '-' || g || '@bench.test',
           array['user'], 2
    from generate_series(1, ${BUYERS}) g`);
  // buyer i bought courses i, i+100, … (10 of them): popularity is uneven across the catalogue
  await db.execute(sql`
    insert into course_enrolments (course_id, user_id, source)
    select c.id, u.id, 'purchase'
    from (select id, row_number() over (order by id) as n from users where slug like ${`bench-buyer-${tag}-%`}) u
    join (select id, row_number() over (order by id) as n from courses where slug like ${`bench-course-${tag}-%`}) c
      on c.n in (select ((u.n - 1) % ${COURSES / PER_BUYER}) + 1 + k * ${COURSES / PER_BUYER} from generate_series(0, ${PER_BUYER - 1}) k)`);
  // the counter a paid enrolment keeps (payments/store.ts), filled here as the migration fills it
  await db.execute(sql`
    update courses set purchase_count = p.n
    from (select course_id, count(*)::int as n from course_enrolments where source = 'purchase' group by course_id) p
    where p.course_id = courses.id`);
  console.log(`seeded ${COURSES} courses and ${BUYERS * PER_BUYER} purchases in ${Date.now() - started} ms`);

  const index = readFileSync(path.join(WEB_DIST, 'index.html'));
  const bare = Fastify();
  bare.get('/static', async (_req, reply) => reply.type('text/html; charset=utf-8').send(index));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const app = await buildApp(deps);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const home = (await app.inject({ method: 'POST', url: '/api/get-home-trainings', payload: {} })).json();
  const search = (await app.inject({ method: 'POST', url: '/api/search-by-courses', payload: {} })).json();
  console.log(
    `home: ${home.courses.length} courses; /search-by-courses page: ${search.list.length} of ${search.total}`,
  );

  const rows = [
    ['baseline: bare Fastify, a static file from memory', await load(`${bareUrl}/static`, 'GET')],
    ['GET /training-home (the page)', await load(`${appUrl}/training-home`, 'GET')],
    ['GET /courses (the page)', await load(`${appUrl}/courses`, 'GET')],
    ['POST /api/get-home-trainings', await load(`${appUrl}/api/get-home-trainings`, 'POST', '{}')],
    ['POST /api/search-by-courses (first page)', await load(`${appUrl}/api/search-by-courses`, 'POST', '{}')],
    [
      'POST /api/search-by-courses (search, page 3)',
      await load(`${appUrl}/api/search-by-courses`, 'POST', JSON.stringify({ search: 'cloud', page: 3 })),
    ],
  ] as const;
  const baseline = rows[0][1];
  console.log(`\nDatabase: ${deps.database.kind}; ${CONNECTIONS} connections, ${DURATION} s each`);
  console.log('| request | req/s | p50 ms | p99 ms | errors | of baseline |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  rows.forEach(([name, m], i) => {
    const share = i === 0 ? 'baseline' : `${Math.round((m.rps / baseline.rps) * 100)} %`;
    console.log(`| ${name} | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} | ${share} |`);
  });

  await app.close();
  await bare.close();
  await closeDeps(deps);
}

void main();
