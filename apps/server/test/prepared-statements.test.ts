import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameStatements } from '../src/platform/db/statement-names';
import { createTestApp, freshDatabaseUrl, type TestApp } from './helpers';
import { inDays, makeTraining } from './trainings-fixtures';

/**
 * PostgreSQL reads are prepared once per connection (decision 0049): named after their text, parsed
 * and planned on first use, then only bound and executed. Writes are not named. On PGlite (no pool,
 * no protocol) the same calls run unprepared: both suites check the lists answer alike either way.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
let prepared: TestApp;
let unprepared: TestApp;

beforeAll(async () => {
  database = await freshDatabaseUrl();
  prepared = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  unprepared = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATABASE_PREPARED_STATEMENTS: 'false' });
});
afterAll(async () => {
  await prepared.close();
  await unprepared.close();
  await database.drop();
});

/** A pool of one connection, so that pg_prepared_statements (per connection) shows what it ran. */
async function oneConnection(named: boolean) {
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  if (named) nameStatements(pool);
  const preparedNow = async () =>
    (await pool.query('select name, statement from pg_prepared_statements order by prepare_time')).rows as {
      name: string;
      statement: string;
    }[];
  return { pool, preparedNow };
}

describe('prepared reads', () => {
  it('a list answers the same, page after page, prepared or not', async () => {
    for (const t of [prepared, unprepared]) {
      const provider = await t.loginAs({ role: 'provider' });
      for (let i = 0; i < 3; i++) {
        await makeTraining(t, provider.token, {
          name: `Prepared ${i}`,
          start_date: inDays(i + 1),
          end_date: inDays(i + 2),
        });
      }
      // the same read three times over: on PostgreSQL the second and third only bind and execute
      for (let i = 0; i < 3; i++) {
        const page = await t.post('all-trainings', { per_page: 2 }, provider.token);
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
        expect(page.body.list.map((r: { name: string }) => r.name)).toEqual(['Prepared 0', 'Prepared 1']);
      }
    }
  });

  it('PostgreSQL: a read is named after its text and prepared once; a write, or with naming off, is not', async () => {
    if (!onPostgres) {
      // PGlite runs in this process: there is no connection to prepare on, and no setting to refuse
      expect(prepared.deps.database.kind).toBe('pglite');
      expect(unprepared.deps.config.DATABASE_PREPARED_STATEMENTS).toBe(false);
      return;
    }
    const named = await oneConnection(true);
    try {
      await named.pool.query('create table notes (id int primary key, body text)');
      await named.pool.query({ text: 'insert into notes (id, body) values ($1, $2)', values: [1, 'one'] });
      for (let i = 0; i < 3; i++) {
        const { rows } = await named.pool.query({ text: 'select body from notes where id = $1', values: [1] });
        expect(rows).toEqual([{ body: 'one' }]);
      }
      const after = await named.preparedNow();
      // one prepared statement for the three reads, none for the insert
      expect(after.map((s) => s.statement)).toEqual(['select body from notes where id = $1']);
      expect(after[0]!.name).toMatch(/^tl_[\w-]{27}$/);
    } finally {
      await named.pool.end();
    }
    const plain = await oneConnection(false);
    try {
      await plain.pool.query({ text: 'select body from notes where id = $1', values: [1] });
      expect(await plain.preparedNow()).toEqual([]);
    } finally {
      await plain.pool.end();
    }
  });

  it('PostgreSQL: a prepared read survives a change of its table (the plan is made again)', async () => {
    if (!onPostgres) {
      expect(prepared.deps.database.kind).toBe('pglite');
      return;
    }
    const named = await oneConnection(true);
    try {
      await named.pool.query('create table marks (id int primary key, score int)');
      await named.pool.query('insert into marks values (1, 5)');
      const read = { text: 'select id, score from marks where id = $1', values: [1] };
      expect((await named.pool.query(read)).rows).toEqual([{ id: 1, score: 5 }]);
      // a migration adds a column and an index: the listed columns are unchanged, the read goes on
      await named.pool.query('alter table marks add column note text');
      await named.pool.query('create index marks_score_idx on marks (score)');
      expect((await named.pool.query(read)).rows).toEqual([{ id: 1, score: 5 }]);
    } finally {
      await named.pool.end();
    }
  });
});
