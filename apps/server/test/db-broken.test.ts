import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, GuardedPglite } from '../src/platform/db/guarded-pglite';
import { createTestApp, PASSWORD, type TestApp } from './helpers';
import { makeTraining } from './trainings-fixtures';

/**
 * A statement too large for the database (60,000 bind parameters of 40 characters: PGlite cannot
 * serialize it, which used to leave its protocol stream answering every later query with no rows;
 * PostgreSQL refuses it) fails alone: the next requests of other people, logins included, get right
 * answers, or a 503 while the embedded database cannot answer — never a wrong one.
 */
const PARAMS = 60_000;
const oversized = (params = PARAMS) =>
  sql`select count(*) from (values ${sql.join(
    Array.from({ length: params }, (_, i) => sql`(${`value-${i}-of-a-statement-much-too-large`})`),
    sql`, `,
  )}) as v(x)`;

const apps: TestApp[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => {});
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a query that fails inside a request', () => {
  it('leaves the next requests and logins answering with the right data (PGlite data folder, or PostgreSQL)', async () => {
    let databaseUrl: string | undefined;
    if (!process.env.TEST_DATABASE_URL) {
      databaseUrl = mkdtempSync(path.join(tmpdir(), 'tl-broken-'));
      dirs.push(databaseUrl);
    }
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, databaseUrl ? { databaseUrl } : {});
    apps.push(t);
    const provider = await t.loginAs({ role: 'provider' });
    const training = await makeTraining(t, provider.token);
    const other = await t.createUser({ role: 'provider' });

    // PostgreSQL takes 60,000 parameters; 70,000 is over its limit of 65,535
    const failed = await t.deps.db.execute(oversized(process.env.TEST_DATABASE_URL ? 70_000 : PARAMS)).then(
      () => null,
      (e: Error) => e,
    );
    expect(failed).toBeInstanceOf(Error);
    // on PGlite the stream broke and the guard answered for it (then reopened the folder)
    if (!process.env.TEST_DATABASE_URL) expect(failed?.cause).toBeInstanceOf(DatabaseUnavailableError);

    const login = await t.post('login', { email: other.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const list = await t.post('all-trainings', {}, provider.token);
    expect(list.status).toBe(200);
    expect(list.body.list.map((r: { slug: string }) => r.slug)).toContain(training.slug);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 120_000);

  it('an in-memory PGlite that cannot be reopened answers 503 with Retry-After, and health says so', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { databaseUrl: 'memory://' });
    apps.push(t);
    const { token } = await t.loginAs({ role: 'user' });
    // drizzle wraps the driver's error: the guard's answer is its cause
    await expect(t.deps.db.execute(oversized())).rejects.toMatchObject({ cause: expect.any(DatabaseUnavailableError) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lpu/get-trainings',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
  }, 120_000);
});

describe('GuardedPglite', () => {
  it('reopens a data folder after a broken stream: committed rows are there, the failed statement is not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tl-guard-'));
    dirs.push(dir);
    const lines: string[] = [];
    const g = await GuardedPglite.open(dir, (m) => lines.push(m));
    await g.exec('create table kept (n int)');
    await g.exec('insert into kept values (1), (2)');
    const values = Array.from({ length: PARAMS }, (_, i) => `v${i}-padding-padding-padding-padding`);
    const placeholders = values.map((_, i) => `($${i + 1})`).join(',');
    await expect(
      g.query(`insert into kept select length(x) from (values ${placeholders}) v(x)`, values),
    ).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(g.reopened).toBe(1);
    expect(lines.join('\n')).toContain('reopening it from');
    expect((await g.query<{ n: number }>('select count(*)::int as n from kept')).rows).toEqual([{ n: 2 }]);
    await g.ping();
    await g.close();
  }, 120_000);

  it('a PostgreSQL error (a SQLSTATE) is the caller’s: no reopen, the next query answers', async () => {
    const g = await GuardedPglite.open(null, () => {});
    await expect(g.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
    expect(g.reopened).toBe(0);
    expect((await g.query<{ ok: number }>('select 1 as ok')).rows).toEqual([{ ok: 1 }]);
    await g.close();
  });
});
