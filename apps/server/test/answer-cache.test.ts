import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRealtime } from '../src/adapters/realtime';
import { trainings, trainingUsers } from '../src/db/schema';
import { recordQueries } from '../src/platform/db/query-observer';
import { tablesWritten } from '../src/platform/db/write-watch';
import { ANSWERS_WRITTEN_CHANNEL, createAnswerCache } from '../src/platform/http/answer-cache';
import { createTestApp, freshDatabaseUrl, type TestApp } from './helpers';
import { eventually, redisEnv, secondInstance } from './second-instance';
import { makeTraining, person } from './trainings-fixtures';

const env = {
  LOGIN_RATE_LIMIT: '1000',
  ...redisEnv(),
  // long enough that only a write, the clock of a training's end or a bus message can explain a change
  ANSWER_CACHE_SECONDS: '60',
  SESSION_CACHE_SECONDS: '60',
};

let t: TestApp;
/** a second instance on the same database and Redis, with an answer cache of its own */
let second: FastifyInstance;
let closeSecond: () => Promise<void>;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabaseUrl();
  drop = db.drop;
  t = await createTestApp(env, { databaseUrl: db.url });
  const other = await secondInstance(t, env, db.url, async (bus) => ({
    answers: await createAnswerCache({ ttlMs: 60_000, bus, onTableWrite: null }),
  }));
  second = other.app;
  closeSecond = other.close;
});
afterAll(async () => {
  await closeSecond();
  await t.close();
  await drop();
});

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
async function on(app: FastifyInstance, path: string, token: string, body: object = {}): Promise<any> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The answer of a call and the statements it sent. */
async function measured(path: string, token: string, body: object = {}) {
  const { result, queries } = await recordQueries(() => on(t.app, path, token, body));
  return { body: result, queries };
}

const names = (page: { list: { name: string }[] }) => page.list.map((r) => r.name);

describe('hot lists are answered from memory until something they read is written', () => {
  it('a repeated first page sends no statement; a new training, an enrolment and a raw update each show at once', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    await makeTraining(t, token, { name: 'Cached One' });

    const first = await measured('all-trainings', token);
    expect(names(first.body)).toEqual(['Cached One']);
    expect(first.queries.length).toBeGreaterThan(0);
    const again = await measured('all-trainings', token);
    expect(again.body).toEqual(first.body);
    expect(again.queries).toEqual([]);

    // a write through the API (a plain INSERT)
    const second = await makeTraining(t, token, { name: 'Cached Two' });
    expect(names((await measured('all-trainings', token)).body)).toEqual(['Cached One', 'Cached Two']);

    // an enrolment changes a figure of a row (another table)
    expect((await measured('all-trainings', token)).body.list[1].total_participants).toBe(0);
    const enrol = await t.post('lp/add-training-user', { slug: second.slug, ...person(1) }, token);
    expect(enrol.status, JSON.stringify(enrol.body)).toBe(200);
    expect((await measured('all-trainings', token)).body.list[1].total_participants).toBe(1);

    // a statement no call sends, straight through the database handle
    await t.deps.db.execute(sql`update trainings set name = 'Renamed Raw' where id = ${second.id}`);
    expect(names((await measured('all-trainings', token)).body)).toEqual(['Cached One', 'Renamed Raw']);

    // a removed account takes its enrolment with it (a cascade the statement does not name)
    const [enrolled] = await t.deps.db
      .select({ user_id: trainingUsers.user_id })
      .from(trainingUsers)
      .where(eq(trainingUsers.training_id, second.id));
    await t.deps.db.execute(sql`delete from users where id = ${enrolled!.user_id}`);
    expect((await measured('all-trainings', token)).body.list[1].total_participants).toBe(0);
  });

  it('each caller has its own answers: another tenant asking the same page never gets the first one’s rows', async () => {
    const a = await t.loginAs({ role: 'provider' });
    const b = await t.loginAs({ role: 'provider' });
    await makeTraining(t, a.token, { name: 'Only A' });
    expect(names(await on(t.app, 'all-trainings', a.token))).toEqual(['Only A']);
    expect(names(await on(t.app, 'all-trainings', b.token))).toEqual([]);
    // a query that changes what the page means is part of the key
    expect(names(await on(t.app, 'all-trainings', a.token, { search: 'zzz' }))).toEqual([]);
    expect(names(await on(t.app, 'all-trainings', a.token, { search: 'Only' }))).toEqual(['Only A']);
    // the same person in a new organization (a tenant column of the account) is asked again
    const org = await t.createOrganization();
    const member = await t.loginAs({ role: 'organization', organization_id: org.id });
    expect(names(await on(t.app, 'all-trainings', member.token))).toEqual([]);
    const other = await t.createOrganization();
    await makeTraining(t, member.token, { name: 'Org Training' });
    expect(names(await on(t.app, 'all-trainings', member.token))).toEqual(['Org Training']);
    await t.deps.db.execute(sql`update users set organization_id = ${other.id} where id = ${member.user.id}`);
    expect(names(await on(t.app, 'all-trainings', member.token))).toEqual([]);
  });

  it('an upcoming training leaves the kept page when it ends, with no write in between', async () => {
    const { token, user } = await t.loginAs({ role: 'provider' });
    await t.deps.db.execute(sql`
      insert into trainings (slug, link, name, start_date, end_date, total_training_day, number_of_participants,
                             description, requirements, owner_user_id, created_by)
      values ('ends-soon-' || ${user.id}, md5(random()::text), 'Ends Soon', now() - interval '1 day',
              now() + interval '1500 milliseconds', 1, 5, 'x', array['y'], ${user.id}, ${user.id})`);
    expect(names((await measured('all-trainings', token)).body)).toEqual(['Ends Soon']);
    expect((await measured('all-trainings', token)).queries).toEqual([]);
    await new Promise((r) => setTimeout(r, 1700));
    expect(names((await measured('all-trainings', token)).body)).toEqual([]);
  });

  it('a read that runs while a write is open is not kept past the write’s commit', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    const made = await makeTraining(t, token, { name: 'Before Commit' });
    await on(t.app, 'all-trainings', token);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let written!: () => void;
    const wrote = new Promise<void>((r) => {
      written = r;
    });
    const transaction = t.deps.database.inTransaction(async () => {
      await t.deps.db.update(trainings).set({ name: 'After Commit' }).where(eq(trainings.id, made.id));
      written();
      await held;
    });
    await wrote;
    // PostgreSQL answers with the committed row; PGlite waits for the transaction: both are right
    const during = on(t.app, 'all-trainings', token);
    setTimeout(release, 100);
    await transaction;
    await during;
    expect(names(await on(t.app, 'all-trainings', token))).toEqual(['After Commit']);
  });

  it('another instance forgets its answers when this one writes (over Redis)', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    const made = await makeTraining(t, token, { name: 'Seen There' });
    expect(names(await on(second, 'all-trainings', token))).toEqual(['Seen There']);
    await t.deps.db.update(trainings).set({ name: 'Renamed Here' }).where(eq(trainings.id, made.id));
    expect(await eventually(async () => names(await on(second, 'all-trainings', token))[0] === 'Renamed Here')).toBe(
      true,
    );
  });

  it('every hot list is kept and ended by a write to what it reads', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    const lists: [string, string, () => Promise<unknown>][] = [
      ['get-all-lp-users', 'users', () => t.createUser({ role: 'provider_user', provider_id: 0 })],
      ['get-courses', 'course_enrolments', () => t.deps.db.execute(sql`delete from course_enrolments where id < 0`)],
      ['vm-list', 'vms', () => t.deps.db.execute(sql`update vms set name = name`)],
      ['vm-payments-history', 'payments', () => t.deps.db.execute(sql`update payments set status = status`)],
      ['get-question-bank', 'questions', () => t.deps.db.execute(sql`update questions set level = level`)],
      ['show-take-call', 'take_calls', () => t.deps.db.execute(sql`update take_calls set title = title`)],
      ['get-audit-log', 'audit_log', () => makeTraining(t, token, { name: 'Audited' })],
    ];
    for (const [path, table, write] of lists) {
      await on(t.app, path, token);
      expect((await measured(path, token)).queries, `${path} kept`).toEqual([]);
      await write();
      const after = await measured(path, token);
      expect(after.queries.length, `${path} asked again after a write to ${table}`).toBeGreaterThan(0);
    }
  });
});

describe('the answer cache itself', () => {
  const make = (o: Partial<Parameters<typeof createAnswerCache>[0]> = {}) =>
    createAnswerCache({ ttlMs: 60_000, bus: null, onTableWrite: null, ...o });

  it('tells the tables a statement writes, and nothing for a read', () => {
    expect(tablesWritten('select * from "trainings"')).toBeNull();
    expect([...tablesWritten('insert into "trainings" ("name") values ($1)')!]).toEqual(['trainings']);
    expect([...tablesWritten('update "vms" set "status" = $1 where "vms"."id" = $2')!]).toEqual(['vms']);
    expect([...tablesWritten('delete from training_users where training_id in (select id from trainings)')!]).toEqual([
      'training_users',
      'trainings',
    ]);
    expect([
      ...tablesWritten('with x as (update "payments" set "status" = 1 returning id) select * from x')!,
    ]).toContain('payments');
    expect([...tablesWritten('truncate table public.audit_log')!]).toEqual(['audit_log']);
  });

  it('keeps an answer of exactly 512 KB and sends one a byte larger without keeping it', async () => {
    const cache = await make();
    let computed = 0;
    // JSON of a string is the string in quotes: 2 characters more
    const of = (n: number) => async () => {
      computed++;
      return { body: 'x'.repeat(n - 2) };
    };
    await cache.answer('at', ['t'], of(512 * 1024));
    await cache.answer('at', ['t'], of(512 * 1024));
    expect(computed).toBe(1);
    await cache.answer('past', ['t'], of(512 * 1024 + 1));
    await cache.answer('past', ['t'], of(512 * 1024 + 1));
    expect(computed).toBe(3);
    await cache.close();
  });

  it('holds at most maxBytes: at the limit every answer stays, one past it the oldest goes', async () => {
    // each entry costs its answer's and its key's characters and 256 for itself: 10 + 1 + 256 here
    const cache = await make({ maxBytes: 3 * 267 });
    const ten = (c: string) => async () => ({ body: c.repeat(8) }); // 10 characters of JSON
    await cache.answer('a', ['t'], ten('a'));
    await cache.answer('b', ['t'], ten('b'));
    await cache.answer('c', ['t'], ten('c'));
    expect([cache.size, cache.bytes]).toEqual([3, 3 * 267]);
    await cache.answer('d', ['t'], async () => ({ body: 'd' }));
    expect([cache.size, cache.bytes]).toEqual([3, 2 * 267 + 260]);
    let asked = false;
    await cache.answer('a', ['t'], async () => {
      asked = true;
      return { body: 'a'.repeat(8) };
    });
    expect(asked).toBe(true);
    await cache.close();
  });

  it('shares one computation among callers asking at once, keeps no failure, and ends at the TTL and at until', async () => {
    let now = 1_000;
    const cache = await make({ ttlMs: 100, now: () => now });
    let runs = 0;
    const slow = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return { body: { n: runs }, until: 1_050 };
    };
    const [a, b] = await Promise.all([cache.answer('k', ['t'], slow), cache.answer('k', ['t'], slow)]);
    expect([a, b, runs]).toEqual(['{"n":1}', '{"n":1}', 1]);
    now = 1_049;
    expect(await cache.answer('k', ['t'], slow)).toBe('{"n":1}');
    now = 1_050;
    expect(await cache.answer('k', ['t'], slow)).toBe('{"n":2}');
    await expect(cache.answer('f', ['t'], () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.answer('f', ['t'], async () => ({ body: 'up' }))).toBe('"up"');
    // without until, the TTL
    expect(await cache.answer('ttl', ['t'], async () => ({ body: 1 }))).toBe('1');
    now = 1_149;
    expect(await cache.answer('ttl', ['t'], async () => ({ body: 2 }))).toBe('1');
    now = 1_150;
    expect(await cache.answer('ttl', ['t'], async () => ({ body: 3 }))).toBe('3');
    await cache.close();
  });

  it('a write during a computation keeps its answer from being served; a write elsewhere does not', async () => {
    const cache = await make();
    let runs = 0;
    const during = cache.answer('k', ['a', 'b'], async () => {
      runs++;
      cache.written(new Set(['b']));
      return { body: runs };
    });
    expect(await during).toBe('1');
    expect(await cache.answer('k', ['a', 'b'], async () => ({ body: ++runs }))).toBe('2');
    cache.written(new Set(['c']));
    expect(await cache.answer('k', ['a', 'b'], async () => ({ body: ++runs }))).toBe('2');
    cache.written('all');
    expect(await cache.answer('k', ['a', 'b'], async () => ({ body: ++runs }))).toBe('3');
    await cache.close();
  });

  it('a message on the bus can only make an instance forget: a malformed one forgets everything, none adds an answer', async () => {
    const bus = memoryRealtime();
    const cache = await make({ bus });
    let runs = 0;
    const run = async () => ({ body: ++runs });
    await cache.answer('k', ['trainings'], run);
    await bus.publish(ANSWERS_WRITTEN_CHANNEL, { from: 'elsewhere', tables: ['vms'] });
    expect(await cache.answer('k', ['trainings'], run)).toBe('1');
    for (const forged of [{ from: 'elsewhere', tables: 'trainings' }, { tables: { length: 1e9 } }, null, 'x']) {
      await bus.publish(ANSWERS_WRITTEN_CHANNEL, forged);
      expect(cache.size).toBe(0);
      await cache.answer('k', ['trainings'], run);
    }
    expect(runs).toBe(5);
    await cache.close();
    await bus.close();
  });

  it('keeps nothing while it cannot hear the other instances, and nothing at TTL 0', async () => {
    const deafBus = {
      subscribe: async () => {
        throw new Error('Redis is down');
      },
      publish: async () => {},
      close: async () => {},
    };
    const deaf = await make({ bus: deafBus as never });
    const off = await make({ ttlMs: 0 });
    for (const cache of [deaf, off]) {
      let runs = 0;
      await cache.answer('k', ['t'], async () => ({ body: ++runs }));
      expect(await cache.answer('k', ['t'], async () => ({ body: ++runs }))).toBe('2');
      expect(cache.size).toBe(0);
      await cache.close();
    }
  });

  it('ANSWER_CACHE_SECONDS=0 asks the database on every call', async () => {
    const off = await createTestApp(
      { ANSWER_CACHE_SECONDS: '0', LOGIN_RATE_LIMIT: '1000' },
      { databaseUrl: 'memory://' },
    );
    try {
      const { token } = await off.loginAs({ role: 'provider' });
      await recordQueries(() => off.post('all-trainings', {}, token));
      const { queries } = await recordQueries(() => off.post('all-trainings', {}, token));
      expect(queries.length).toBeGreaterThan(0);
    } finally {
      await off.close();
    }
  });
});
