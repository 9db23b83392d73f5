import { IMPORT_MAX_ROWS, MSG } from '@trainlab/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingUsers } from '../src/db/schema';
import { XLSX_TYPE as XLSX } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { postMultipart } from './master-support';
import { book, makeTraining } from './trainings-fixtures';

/**
 * A class list at exactly the product's row limit imports whole, on PGlite and PostgreSQL alike (one
 * INSERT of every row would pass PostgreSQL's 65,535 bind parameters); one row more is refused; and
 * the server answers normally afterwards.
 */
let t: TestApp;
let provider: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
});
afterAll(() => t.close());

const HEADER = ['firstname', 'lastname', 'email', 'mobileno'];
const rows = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => [`First${i}`, `Last${i}`, `l${i}-${tag}@limit.test`, 9000000000 + i]);
const importFile = (slug: string, body: (string | number)[][]) =>
  postMultipart(
    t,
    'lp/import-training-user',
    [
      { name: 'slug', content: slug },
      { name: 'file', filename: 'class.xlsx', content: book([HEADER, ...body]), contentType: XLSX },
    ],
    provider,
  );
const enrolled = async (trainingId: number) => {
  const [r] = await t.deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(trainingUsers)
    .where(eq(trainingUsers.training_id, trainingId));
  return Number(r?.n ?? 0);
};

describe(`training users import at the limit (${IMPORT_MAX_ROWS} rows)`, () => {
  it('imports every one of exactly the limit, new accounts included, and the next calls answer normally', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: IMPORT_MAX_ROWS });
    const res = await importFile(tr.slug, rows(IMPORT_MAX_ROWS, 'at'));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toEqual({ message: MSG.recordAdded, count: IMPORT_MAX_ROWS });
    expect(await enrolled(tr.id)).toBe(IMPORT_MAX_ROWS);
    // the same account and others go on working: a list call and a fresh login
    expect((await t.post('lp/get-training-users', { slug: tr.slug }, provider)).body.total).toBe(IMPORT_MAX_ROWS);
    expect((await t.loginAs({ role: 'provider' })).token).toBeTruthy();
  }, 240_000);

  it('refuses one row past the limit and imports nothing', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: IMPORT_MAX_ROWS });
    const res = await importFile(tr.slug, rows(IMPORT_MAX_ROWS + 1, 'over'));
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain(`${IMPORT_MAX_ROWS}`);
    expect(await enrolled(tr.id)).toBe(0);
  }, 120_000);
});
