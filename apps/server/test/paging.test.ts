import { PAGING } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainings, trainingUsers } from '../src/db/schema';
import { recordQueries } from '../src/platform/db/query-observer';
import { createTestApp, type TestApp } from './helpers';
import { inDays } from './trainings-fixtures';

/** The list convention: page, per_page (capped), search, sort in; list, total, page, per_page out. */
let t: TestApp;
let provider: { token: string; user: { id: number } };
let learner: { token: string; user: { id: number } };
const TOTAL = 45;

beforeAll(async () => {
  // every call checks its session and reads its page in the database here (no kept sessions or
  // answers, decision 0050), so query counts do not depend on timing
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_CACHE_SECONDS: '0', ANSWER_CACHE_SECONDS: '0' });
  provider = await t.loginAs({ role: 'provider' });
  // 45 upcoming trainings named T-00 … T-44 (one named with a LIKE wildcard), each with one learner
  learner = await t.loginAs({ role: 'provider_user', provider_id: provider.user.id });
  const rows = await t.deps.db
    .insert(trainings)
    .values(
      Array.from({ length: TOTAL }, (_, i) => ({
        slug: `paging-${i}`,
        link: `link-${i}`,
        name: i === 7 ? 'T-07 50% off' : `T-${String(i).padStart(2, '0')}`,
        start_date: new Date(inDays(1 + i)),
        end_date: new Date(inDays(60)),
        total_training_day: 1,
        number_of_participants: 10,
        owner_user_id: provider.user.id,
      })),
    )
    .returning({ id: trainings.id });
  await t.deps.db.insert(trainingUsers).values(rows.map((r) => ({ training_id: r.id, user_id: learner.user.id })));
  // 44 more learners of the provider: 45 in all, like the trainings
  for (let i = 0; i < TOTAL - 1; i++) await t.createUser({ role: 'provider_user', provider_id: provider.user.id });
});
afterAll(() => t.close());

const list = (body: Record<string, unknown>) => t.post('all-trainings', body, provider.token);
const names = (res: { body: { list: { name: string }[] } }) => res.body.list.map((r) => r.name);

describe('the list convention on /all-trainings', () => {
  it('answers the first page of 20 without paging fields, with the total (old clients keep `list`)', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: TOTAL, page: 1, per_page: PAGING.defaultPerPage });
    expect(res.body.list).toHaveLength(20);
    expect(names(res)[0]).toBe('T-00');
  });

  it('pages: page 3 of 20 holds the last 5; past the end is empty with the total', async () => {
    const third = await list({ page: 3, per_page: 20 });
    expect(third.body.list).toHaveLength(5);
    expect(third.body.total).toBe(TOTAL);
    const past = await list({ page: 9 });
    expect(past.body).toMatchObject({ list: [], total: TOTAL, page: 9 });
  });

  it('every row appears exactly once across the pages', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) seen.push(...names(await list({ page, per_page: 10 })));
    expect(new Set(seen).size).toBe(TOTAL);
  });

  it(`caps per_page at ${PAGING.maxPerPage}: exactly the cap works, one past it is a 422`, async () => {
    const at = await list({ per_page: PAGING.maxPerPage });
    expect(at.status).toBe(200);
    expect(at.body.list).toHaveLength(TOTAL);
    const over = await list({ per_page: PAGING.maxPerPage + 1 });
    expect(over.status).toBe(422);
    expect(over.body.per_page).toBeDefined();
    expect((await list({ page: 0 })).status).toBe(422);
  });

  it('sorts by a declared key either way, and refuses an undeclared one', async () => {
    expect(names(await list({ sort: '-name', per_page: 1 }))).toEqual(['T-44']);
    expect(names(await list({ sort: 'name', per_page: 1 }))).toEqual(['T-00']);
    expect(names(await list({ sort: '-start_date', per_page: 1 }))).toEqual(['T-44']);
    const bad = await list({ sort: 'password' });
    expect(bad.status).toBe(422);
    expect(bad.body.sort[0]).toMatch(/The sort must be one of/);
  });

  it('searches case-insensitively and takes % and _ literally', async () => {
    expect(names(await list({ search: 't-1' }))).toHaveLength(10);
    const pct = await list({ search: '50%' });
    expect(names(pct)).toEqual(['T-07 50% off']);
    expect(pct.body.total).toBe(1);
    expect((await list({ search: '_' })).body.total).toBe(0);
    expect((await list({ search: 'x'.repeat(PAGING.maxSearch + 1) })).status).toBe(422);
  });

  it('a page is one statement, its capped count inside it (no query per row, no second round trip)', async () => {
    const small = await recordQueries(() => list({ per_page: 5 }));
    const large = await recordQueries(() => list({ per_page: 100 }));
    expect(small.result.body).toMatchObject({ total: TOTAL });
    expect(small.result.body.list).toHaveLength(5);
    expect(large.result.body).toMatchObject({ total: TOTAL });
    expect(large.result.body.list).toHaveLength(TOTAL);
    // the session check and the page: the full page of 5 reads its total from the count selected
    // beside its rows (cappedCount), the page shorter than per_page tells it by itself
    expect(small.queries).toHaveLength(2);
    expect(small.queries[1]).toMatch(
      /\(select count\(\*\)::int from \(select 1 from "trainings" where .* limit \$\d+\) capped\)/,
    );
    expect(large.queries).toHaveLength(2);
  });

  it('a last page exactly full, or one row short, tells the right total in one statement', async () => {
    const full = await recordQueries(() => list({ per_page: TOTAL }));
    expect(full.result.body.list).toHaveLength(TOTAL);
    expect(full.result.body.total).toBe(TOTAL);
    expect(full.queries).toHaveLength(2);
    const roomy = await recordQueries(() => list({ per_page: TOTAL + 1 }));
    expect(roomy.result.body.list).toHaveLength(TOTAL);
    expect(roomy.result.body.total).toBe(TOTAL);
    expect(roomy.queries).toHaveLength(2);
    // the second page of 44: one row, after 44; the total from the page itself
    const second = await recordQueries(() => list({ page: 2, per_page: TOTAL - 1 }));
    expect(second.result.body).toMatchObject({ total: TOTAL, page: 2 });
    expect(names(second.result)).toEqual(['T-44']);
    expect(second.queries).toHaveLength(2);
  });

  it('the provider’s learners and a learner’s trainings cost no query per row either', async () => {
    for (const [path, token] of [
      ['get-all-lp-users', provider.token],
      ['lpu/get-trainings', learner.token],
    ] as const) {
      const small = await recordQueries(() => t.post(path, { per_page: 5 }, token));
      const large = await recordQueries(() => t.post(path, { per_page: 100 }, token));
      expect(small.result.body.list).toHaveLength(5);
      expect(small.result.body.total).toBe(TOTAL);
      expect(large.result.body.list).toHaveLength(TOTAL);
      expect(large.result.body.total).toBe(TOTAL);
      // the session check plus the page, which carries its total (the users list a capped count,
      // the learner's trainings a count over the page's query)
      expect(small.queries).toHaveLength(2);
      expect(large.queries).toHaveLength(2);
    }
  });

  it('another tenant sees none of these rows', async () => {
    const other = await t.loginAs({ role: 'provider' });
    const res = await t.post('all-trainings', {}, other.token);
    expect(res.body).toMatchObject({ list: [], total: 0 });
  });
});

describe('the same convention on the users list', () => {
  it('pages, searches and sorts /get-all-lp-users', async () => {
    const admin = await t.loginAs({ role: 'admin' });
    for (let i = 0; i < 3; i++)
      await t.createUser({ role: 'user', first_name: `Zed${i}`, email: `zed${i}@paging.test` });
    const res = await t.post('get-all-lp-users', { search: 'zed', sort: '-email', per_page: 2 }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.list.map((u: { email: string }) => u.email)).toEqual(['zed2@paging.test', 'zed1@paging.test']);
  });
});
