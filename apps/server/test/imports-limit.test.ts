import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_MAX_ROWS, IMPORT_TEMPLATES, MSG } from '@trainlab/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifications, questions, syllabusTopics, trainingUsers } from '../src/db/schema';
import { parseSheet } from '../src/platform/excel/parse';
import { BANK_HEADER, bankRow, XLSX_TYPE as XLSX } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { postMultipart, seedMasters } from './master-support';
import { book, makeTraining } from './trainings-fixtures';

/**
 * Every import at exactly the product's row limit is written whole, on PGlite and PostgreSQL alike
 * (one INSERT of every row would pass PostgreSQL's 65,535 bind parameters and break PGlite); one row
 * more is refused before anything is written; a file whose last row is bad imports nothing; and the
 * server answers normally afterwards.
 */
let t: TestApp;
let provider: string;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  admin = (await t.loginAs({ role: 'admin' })).token;
  await seedMasters(t, admin);
});
afterAll(() => t.close());

type Cell = string | number | null;
interface Kind {
  name: string;
  /** a fresh target (a training for the per-training imports) and its call's text fields */
  target(): Promise<{ fields: { name: string; content: string }[]; stored(): Promise<number> }>;
  call: string;
  token(): string;
  header: readonly string[];
  row(i: number, tag: string): Cell[];
  /** the same row made invalid */
  bad(i: number, tag: string): Cell[];
}

const countWhere = async (table: typeof trainingUsers | typeof syllabusTopics, trainingId: number) =>
  (await t.deps.db.select({ n: count() }).from(table).where(eq(table.training_id, trainingId)))[0]!.n;

const perTraining = (table: typeof trainingUsers | typeof syllabusTopics) => async () => {
  const tr = await makeTraining(t, provider, { number_of_participants: IMPORT_MAX_ROWS });
  return { fields: [{ name: 'slug', content: tr.slug }], stored: () => countWhere(table, tr.id) };
};

const certSample = IMPORT_TEMPLATES.certification.sample;
const KINDS: Kind[] = [
  {
    name: 'training users',
    call: 'lp/import-training-user',
    token: () => provider,
    target: perTraining(trainingUsers),
    header: ['firstname', 'lastname', 'email', 'mobileno'],
    row: (i, tag) => [`First${i}`, `Last${i}`, `l${i}-${tag}@limit.test`, 9000000000 + i],
    bad: (i, tag) => [`First${i}`, `Last${i}`, `not-an-email-${tag}`, 9000000000 + i],
  },
  {
    name: 'syllabus topics',
    call: 'upload-training-syllabus',
    token: () => provider,
    target: perTraining(syllabusTopics),
    header: ['topic_name', 'start_time', 'end_time'],
    row: (i, tag) => [`Topic ${tag} ${i}`, null, null],
    bad: () => ['', 'not a time', null],
  },
  {
    name: 'certifications',
    call: 'upload-certification-master',
    token: () => admin,
    target: async () => {
      const before = (await t.deps.db.select({ n: count() }).from(certifications))[0]!.n;
      return {
        fields: [],
        stored: async () => (await t.deps.db.select({ n: count() }).from(certifications))[0]!.n - before,
      };
    },
    header: CERTIFICATION_IMPORT_COLUMNS,
    row: (i, tag) =>
      CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? `Cert ${tag} ${i}` : (certSample[c] as Cell))),
    bad: (i, tag) =>
      CERTIFICATION_IMPORT_COLUMNS.map((c) =>
        c === 'name' ? `Cert ${tag} ${i}` : c === 'level' ? 'Grandmaster' : (certSample[c] as Cell),
      ),
  },
  {
    name: 'question bank',
    call: 'upload-question-bank',
    token: () => provider,
    target: async () => {
      const before = (await t.deps.db.select({ n: count() }).from(questions))[0]!.n;
      return {
        fields: [],
        stored: async () => (await t.deps.db.select({ n: count() }).from(questions))[0]!.n - before,
      };
    },
    header: BANK_HEADER,
    row: (i, tag) => bankRow(`Question ${tag} ${i}?`, (i % 4) + 1),
    bad: (i, tag) => bankRow(`Question ${tag} ${i}?`, 9),
  },
];

const rows = (kind: Kind, n: number, tag: string, lastBad = false) =>
  Array.from({ length: n }, (_, i) => (lastBad && i === n - 1 ? kind.bad(i, tag) : kind.row(i, tag)));

async function send(kind: Kind, fields: { name: string; content: string }[], body: Cell[][]) {
  return postMultipart(
    t,
    kind.call,
    [
      ...fields,
      { name: 'file', filename: 'import.xlsx', content: book([[...kind.header], ...body]), contentType: XLSX },
    ],
    kind.token(),
  );
}

describe.each(KINDS)(`$name import at the limit (${IMPORT_MAX_ROWS} rows)`, (kind) => {
  it('writes every row of a file at exactly the limit, and the next calls answer normally', async () => {
    const target = await kind.target();
    const res = await send(kind, target.fields, rows(kind, IMPORT_MAX_ROWS, 'at'));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ message: MSG.recordAdded, count: IMPORT_MAX_ROWS });
    expect(await target.stored()).toBe(IMPORT_MAX_ROWS);
    expect((await t.post('all-trainings', {}, provider)).status).toBe(200);
    expect((await t.loginAs({ role: 'provider' })).token).toBeTruthy();
  }, 240_000);

  it('refuses one row past the limit and writes nothing', async () => {
    const target = await kind.target();
    const res = await send(kind, target.fields, rows(kind, IMPORT_MAX_ROWS + 1, 'over'));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ file: [`The file must not have more than ${IMPORT_MAX_ROWS} rows.`] });
    expect(await target.stored()).toBe(0);
  }, 120_000);

  it('writes nothing when the last row of a file at the limit is bad, and names that row', async () => {
    const target = await kind.target();
    const res = await send(kind, target.fields, rows(kind, IMPORT_MAX_ROWS, 'last', true));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { row: number }) => e.row)).toContain(IMPORT_MAX_ROWS + 1);
    expect(await target.stored()).toBe(0);
  }, 120_000);
});

describe('the row count comes before the rows', () => {
  const oneColumn = (n: number) => book([['email'], ...Array.from({ length: n }, (_, i) => [`p${i}@limit.test`])]);

  it('a sheet of 100,000 rows is refused from the count of its raw XML, which stops one row past the limit: not one row is parsed', async () => {
    const sheet = await parseSheet(oneColumn(100_000), { maxRows: IMPORT_MAX_ROWS + 1 });
    expect(sheet).toMatchObject({ truncated: true, counted: IMPORT_MAX_ROWS + 2, rows: [] });
    const res = await postMultipart(
      t,
      'upload-question-bank',
      [{ name: 'file', filename: 'big.xlsx', content: oneColumn(100_000), contentType: XLSX }],
      provider,
    );
    expect(res).toEqual({ status: 422, body: { file: [`The file must not have more than ${IMPORT_MAX_ROWS} rows.`] } });
  }, 120_000);

  it('a sheet at the limit is counted and then parsed whole', async () => {
    const sheet = await parseSheet(oneColumn(IMPORT_MAX_ROWS), { maxRows: IMPORT_MAX_ROWS + 1 });
    expect(sheet.counted).toBe(IMPORT_MAX_ROWS + 1);
    expect(sheet.truncated).toBe(false);
    expect(sheet.rows).toHaveLength(IMPORT_MAX_ROWS + 1);
  }, 120_000);
});
