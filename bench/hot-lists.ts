/**
 * The hot lists of the other domains, first page (the list convention: 20 rows and the total): one
 * provider tenant with BENCH_ROWS rows (default 2,000; 100000 for the large variant) in each of
 * courses (/api/get-courses), labs (/api/vm-list), VM bills (/api/vm-payments-history), the question
 * bank (/api/get-question-bank), take calls (/api/show-take-call) and the audit trail
 * (/api/get-audit-log), seeded with bulk INSERT … SELECT. The trainings, users and enrolment lists
 * are in bench/trainings.ts.
 * Baseline, same run, same connections: the framework ceiling (bare Fastify + a one-row primary-key
 * query). The plans of the statements each call really runs (EXPLAIN ANALYZE) are printed first.
 *
 *   npx tsx bench/hot-lists.ts                     (PGlite in memory)
 *   DATABASE_URL=postgres://… npx tsx bench/hot-lists.ts
 *   BENCH_ROWS=100000 DATABASE_URL=postgres://… npx tsx bench/hot-lists.ts
 */
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { closeDeps } from '../apps/server/src/bootstrap';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import { COUNT_AHEAD } from '../apps/server/src/platform/http/paging';
import {
  BENCH_PASSWORD,
  benchDeps,
  CONNECTIONS,
  ceilingSql,
  DURATION,
  insertProvider,
  load,
  loadAverage,
  type Measured,
  paced,
  printPlans,
  rowsOf,
  STEADY_RATE,
  statementsOf,
} from './list-load';

const ROWS = Number(process.env.BENCH_ROWS ?? 2_000);
/** take calls hang off trainings: this many calls per training */
const CALLS_PER_TRAINING = 10;

async function main() {
  const { config, deps } = await benchDeps();
  const db = deps.db;
  const hash = await hashPassword(BENCH_PASSWORD);
  const tag = Date.now().toString(36);
  const started = Date.now();
  const pid = await insertProvider(db, `bench-lists-${tag}`, hash);
  // another tenant of the same size, so that every list filters by tenant rather than reading all
  const otherId = await insertProvider(db, `bench-lists-other-${tag}`, hash);
  for (const [owner, who] of [
    [pid, 'a'],
    [otherId, 'b'],
  ] as const) {
    const key = `${tag}-${who}`;
    await db.execute(sql`
      insert into courses (slug, name, amount_paise, is_paid, description, owner_user_id, created_by, created_at)
      select 'bench-course-' || ${key} || '-' || g, 'Course ' || g, 49900, 1, 'Benchmark course', ${owner}, ${owner},
             now() - (g || ' minutes')::interval
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`
      insert into vms (vm_name, name, image, protocol, zone, ram, storage, status, engine, owner_user_id, created_by, created_at)
      select 'bench-vm-' || ${key} || '-' || g, 'Lab ' || g, 'ubuntu', 'ssh', 'local', 2, 10, g % 3, 'memory', ${owner}, ${owner},
             now() - (g || ' minutes')::interval
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`
      insert into payments (receipt_no, purpose, owner_user_id, gateway, gateway_order_id, amount_paise, tax_paise, gst_bp,
                            status, paid_at, created_at)
      select 'BR-' || ${key} || '-' || g, 'vm', ${owner}, 'test', 'order_' || ${key} || '_' || g, 11800, 1800, 1800,
             1, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`
      insert into payment_items (payment_id, kind, ref_id, name, amount_paise)
      select id, 'vm_usage', id, 'Lab usage', 11800 from payments where owner_user_id = ${owner}`);
    await db.execute(sql`
      insert into questions (bank, owner_user_id, language_identified, question_category, question_type, question,
                             option1, option2, option3, option4, correct_option, level, dedupe_key)
      select 'p:' || ${owner}, ${owner}, 'English', 'General', 'MCQ', 'Question ' || g || ' of the benchmark?',
             'One', 'Two', 'Three', 'Four', 1 + g % 4, (array['Beginner','Intermediate','Advanced'])[1 + g % 3], md5(${key} || g)
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`
      insert into trainings (slug, link, name, start_date, end_date, total_training_day, number_of_participants,
                             description, requirements, owner_user_id, created_by)
      select 'bench-tc-training-' || ${key} || '-' || g, md5(${key} || 'tc' || g), 'Training ' || g,
             now() + (g || ' days')::interval, now() + ((g + 3) || ' days')::interval, 3, 50, 'Benchmark training',
             array['A laptop'], ${owner}, ${owner}
      from generate_series(1, ${Math.max(1, ROWS / CALLS_PER_TRAINING)}) g`);
    await db.execute(sql`
      insert into take_calls (slug, training_id, title, start, "end", created_by)
      select 'bench-tc-' || ${key} || '-' || t.id || '-' || k, t.id, 'Call ' || k || ' for ' || t.name,
             -- the two tenants' calls interleave in time, as on a shared platform
             now() + (((t.n * ${CALLS_PER_TRAINING} + k) * 2 + ${who === 'a' ? 0 : 1}) || ' minutes')::interval,
             now() + (((t.n * ${CALLS_PER_TRAINING} + k) * 2 + 60) || ' minutes')::interval, ${owner}
      from (select id, name, owner_user_id, slug, row_number() over (order by id) as n from trainings
            where owner_user_id = ${owner}) t
      cross join generate_series(1, ${CALLS_PER_TRAINING}) k
      where t.slug like 'bench-tc-training-%'`);
    await db.execute(sql`
      insert into audit_log (at, actor_id, actor_email, actor_role, tenant_owner_id, action, target_type, target_id, changes, ip)
      select now() - (g || ' seconds')::interval, ${owner}, 'bench@bench.test', 'provider', ${owner}, '/api/update-training',
             'training', g::text, jsonb_build_object('name', jsonb_build_object('before', 'A', 'after', 'B')), '127.0.0.1'
      from generate_series(1, ${ROWS}) g`);
  }
  // vacuum sets the visibility map (as autovacuum would), so counts can be index-only scans
  await db.execute(sql`vacuum analyze`);
  console.log(
    `Seeded two tenants of ${ROWS} rows in each list in ${((Date.now() - started) / 1000).toFixed(1)} s; database ${deps.database.kind}`,
  );

  const app = await buildApp(deps);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: `bench-lists-${tag}@bench.test`, password: BENCH_PASSWORD },
  });
  const token = login.json().success.token as string;
  const auth = { authorization: `Bearer ${token}` };

  const lists = [
    ['courses', '/api/get-courses'],
    ['labs', '/api/vm-list'],
    ['VM bills', '/api/vm-payments-history'],
    ['question bank', '/api/get-question-bank'],
    ['take calls', '/api/show-take-call'],
    ['audit trail', '/api/get-audit-log'],
  ] as const;
  for (const [name, url] of lists) {
    let answer:
      | { statusCode: number; json: () => { list?: unknown[]; total?: number; total_capped?: boolean } }
      | undefined;
    const statements = await statementsOf(async () => {
      answer = await app.inject({ method: 'POST', url, headers: auth, payload: {} });
    });
    const body = answer!.json();
    // past the first page's end plus COUNT_AHEAD the answer says "more than" (decision 0047)
    const counted = Math.min(ROWS, 20 + COUNT_AHEAD);
    if (answer!.statusCode !== 200 || body.list?.length !== 20 || body.total !== counted) {
      throw new Error(
        `${url}: ${answer!.statusCode}, ${body.list?.length} rows of ${body.total} (expected 20 of ${counted})`,
      );
    }
    if (Boolean(body.total_capped) !== ROWS > counted) throw new Error(`${url}: total_capped ${body.total_capped}`);
    await printPlans(name, statements);
  }

  const bare = Fastify();
  bare.post('/ceiling', async () => ({ list: rowsOf(await db.execute(ceilingSql(pid))) }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const ceiling = await load(`${bareUrl}/ceiling`, '{}');
  const measured: [string, string, Measured][] = [];
  for (const [name, url] of lists) measured.push([name, url, await load(`${appUrl}${url}`, '{}', auth)]);
  console.log(
    `\nDatabase: ${deps.database.kind}; ${ROWS} rows a list in each of two tenants; ${CONNECTIONS} connections, ${DURATION} s each; session cache ${config.SESSION_CACHE_SECONDS} s; answer cache ${config.ANSWER_CACHE_SECONDS} s; load average ${loadAverage()}`,
  );
  console.log('| list (first page) | endpoint | req/s | p50 ms | p99 ms | errors | of the ceiling |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ceiling: bare Fastify + one-row primary-key query | | ${ceiling.rps} | ${ceiling.p50} | ${ceiling.p99} | ${ceiling.errors} | 100 % |`,
  );
  for (const [name, url, m] of measured) {
    console.log(
      `| ${name} | \`${url}\` | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} | ${Math.round((m.rps / ceiling.rps) * 100)} % |`,
    );
  }

  console.log(
    `\nSteady load: ${STEADY_RATE} req/s evenly spaced, up to ${CONNECTIONS} connections, ${DURATION} s each`,
  );
  console.log('| list | p50 ms | p99 ms | errors |');
  console.log('| --- | --- | --- | --- |');
  const c = await paced(`${bareUrl}/ceiling`, {});
  console.log(`| ceiling | ${c.p50} | ${c.p99} | ${c.errors} |`);
  for (const [name, url] of lists) {
    const m = await paced(`${appUrl}${url}`, auth);
    console.log(`| ${name} | ${m.p50} | ${m.p99} | ${m.errors} |`);
  }
  console.log(`Load average at the end: ${loadAverage()}`);

  await app.close();
  await bare.close();
  await closeDeps(deps);
}

void main();
