/**
 * API overhead benchmark: the same list query served (a) by a bare Fastify route straight on the
 * database and (b) through the full stack (permission table, auth, validation, error handling).
 * Both run in this process on the same database, one after the other, with autocannon on loopback.
 *
 *   npm run bench            (PGlite in memory)
 *   DATABASE_URL=postgres://… npm run bench
 */
import { asc } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { linesOfBusiness } from '../apps/server/src/db/schema';
import { loadConfig } from '../apps/server/src/platform/config';
import { seedDemo } from '../apps/server/src/seed/demo';
import { DURATION, load as loadAt } from './list-load';

const CONNECTIONS = 10;
const load = (url: string, body: string, headers: Record<string, string> = {}) =>
  loadAt(url, body, headers, CONNECTIONS);

async function main() {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000000' });
  const deps = await createDeps(config, process.env.DATABASE_URL ?? 'memory://');
  await seedDemo(deps.db);

  const bare = Fastify();
  bare.post('/lob', async () => ({
    list: await deps.db
      .select({ id: linesOfBusiness.id, name: linesOfBusiness.name })
      .from(linesOfBusiness)
      .orderBy(asc(linesOfBusiness.name)),
  }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const app = await buildApp(deps);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const loginRes = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: 'admin@demo.test', password: 'Demo@12345' },
  });
  const token = loginRes.json().success.token as string;

  const rows = [
    ['baseline: bare Fastify + select', await load(`${bareUrl}/lob`, '{}')],
    ['/api/get-line-of-business (public)', await load(`${appUrl}/api/get-line-of-business`, '{}')],
    [
      '/api/current-token (session lookup)',
      await load(`${appUrl}/api/current-token`, '{"email":"admin@demo.test"}', { authorization: `Bearer ${token}` }),
    ],
  ] as const;
  console.log(`\nDatabase: ${deps.database.kind}; ${CONNECTIONS} connections, ${DURATION} s each`);
  console.log('| endpoint | req/s | p50 ms | p99 ms | errors |\n| --- | --- | --- | --- | --- |');
  for (const [name, m] of rows) {
    console.log(`| ${name} | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} |`);
  }
  await app.close();
  await bare.close();
  await closeDeps(deps);
}

void main();
