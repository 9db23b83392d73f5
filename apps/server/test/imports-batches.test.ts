import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_TEMPLATES, MSG } from '@trainlab/contract';
import { and, count, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifications, jobs, questions, syllabusTopics, trainingUsers, users, vms } from '../src/db/schema';
import { BANK_MSG } from '../src/domains/assessments/bank';
import { ENROLMENT_MAIL_JOB } from '../src/domains/trainings/training-users';
import { SheetReader } from '../src/platform/excel';
import { BANK_HEADER, bankRow, XLSX_TYPE as XLSX } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { postMultipart, seedMasters } from './master-support';
import { book, makeTraining } from './trainings-fixtures';

/**
 * Imports are read, checked and written in batches (500 rows with a value each, the header
 * included) inside one transaction: a row refused in a late batch leaves nothing of the earlier
 * ones, repeats are found however far apart their rows are, and the errors are those of a file
 * read whole. Files of 1,100 rows: data rows 2–500 are the first batch, 501–1000 the second,
 * 1001–1101 the third.
 */
let t: TestApp;
let provider: string;
let providerId: number;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  providerId = p.user.id;
  admin = (await t.loginAs({ role: 'admin' })).token;
  await seedMasters(t, admin);
});
afterAll(() => t.close());

type Cell = string | number | null;
const ROWS = 1100;
const send = (call: string, header: readonly string[], body: Cell[][], token: string, slug?: string) =>
  postMultipart(
    t,
    call,
    [
      ...(slug ? [{ name: 'slug', content: slug }] : []),
      { name: 'file', filename: 'import.xlsx', content: book([[...header], ...body]), contentType: XLSX },
    ],
    token,
  );
/** the data row at spreadsheet row `row` (the header is row 1) */
const at = (row: number) => row - 2;
/** the e-mail (third column) of a people file's row */
const emailAt = (body: Cell[][], row: number) => String(body.at(at(row))?.[2]);

describe('training users', () => {
  const HEADER = IMPORT_TEMPLATES['training-user'].columns;
  const people = (tag: string) =>
    Array.from({ length: ROWS }, (_, i): Cell[] => [
      `First${i}`,
      `Last${i}`,
      `b${i}-${tag}@batches.test`,
      9000000000 + i,
    ]);
  const enrolments = async (trainingId: number) =>
    (await t.deps.db.select({ n: count() }).from(trainingUsers).where(eq(trainingUsers.training_id, trainingId)))[0]!.n;
  const accounts = async (tag: string) =>
    (
      await t.deps.db
        .select({ n: count() })
        .from(users)
        .where(like(users.email, `%-${tag}@batches.test`))
    )[0]!.n;
  const mailJobs = (trainingId: number) =>
    t.deps.db
      .select({ payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.kind, ENROLMENT_MAIL_JOB), sql`(${jobs.payload}->>'training_id')::int = ${trainingId}`));

  it('writes every batch and queues every enrolment e-mail with them', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 2000 });
    const res = await send('lp/import-training-user', HEADER, people('ok'), provider, tr.slug);
    expect(res).toEqual({ status: 200, body: { message: MSG.recordAdded, count: ROWS } });
    expect(await enrolments(tr.id)).toBe(ROWS);
    const queued = (await mailJobs(tr.id)).flatMap((j) => (j.payload as { people: { id: number }[] }).people);
    expect(new Set(queued.map((p) => p.id)).size).toBe(ROWS);
  }, 120_000);

  it('an e-mail of row 3 repeated in row 1050 is refused there, and the batches before it are not kept', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 2000 });
    const body = people('dup');
    body[at(1050)]![2] = emailAt(body, 3);
    const res = await send('lp/import-training-user', HEADER, body, provider, tr.slug);
    expect(res).toEqual({
      status: 422,
      body: { errors: [{ row: 1050, attribute: 'email', errors: ['The email appears more than once in the file.'] }] },
    });
    expect(await enrolments(tr.id)).toBe(0);
    expect(await accounts('dup')).toBe(0);
    expect(await mailJobs(tr.id)).toEqual([]);
  }, 120_000);

  it('a learner already enrolled, in the third batch, is found in the database', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 2000 });
    const body = people('known');
    const added = await t.post(
      'lp/add-training-user',
      {
        slug: tr.slug,
        first_name: 'Known',
        last_name: 'Learner',
        email: 'KNOWN-enrolled@batches.test',
        mobile_no: '9876543210',
      },
      provider,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    body[at(1080)]![2] = 'known-ENROLLED@batches.test';
    const res = await send('lp/import-training-user', HEADER, body, provider, tr.slug);
    expect(res).toEqual({
      status: 422,
      body: { errors: [{ row: 1080, attribute: 'email', errors: [MSG.trainingUserExists] }] },
    });
    expect(await enrolments(tr.id)).toBe(1);
    expect(await accounts('known')).toBe(0);
  }, 120_000);

  it('a file past the training’s participants is refused with the whole file’s count, and nothing is kept', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 1000 });
    const res = await send('lp/import-training-user', HEADER, people('full'), provider, tr.slug);
    expect(res).toEqual({
      status: 422,
      body: { file: [`${MSG.trainingFull} (1000): 0 enrolled, the file adds ${ROWS}.`] },
    });
    expect(await enrolments(tr.id)).toBe(0);
    expect(await accounts('full')).toBe(0);
  }, 120_000);

  it('rows that break the schema are answered before the checks against the database, as when the file was read whole', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 2000 });
    const body = people('schema');
    body[at(10)]![2] = emailAt(body, 4); // a repeat in the first batch ...
    body[at(1090)]![2] = 'not-an-email'; // ... and a bad e-mail in the third
    const res = await send('lp/import-training-user', HEADER, body, provider, tr.slug);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { row: 1090, attribute: 'email', errors: ['The email must be a valid email address.'] },
    ]);
    expect(await enrolments(tr.id)).toBe(0);
  }, 120_000);
});

describe('question bank', () => {
  const rows = (tag: string) => Array.from({ length: ROWS }, (_, i) => bankRow(`Batched ${tag} ${i}?`, (i % 4) + 1));
  const stored = async (tag: string) =>
    (
      await t.deps.db
        .select({ n: count() })
        .from(questions)
        .where(like(questions.question, `Batched ${tag} %`))
    )[0]!.n;

  it('a question repeated far apart and one already in the bank are row errors; nothing is kept', async () => {
    expect((await send('upload-question-bank', BANK_HEADER, [bankRow('Batched old 1?')], provider)).status).toBe(200);
    const body = rows('far');
    body[at(1090)] = bankRow('  batched FAR 0? ', 3); // the question of row 2, written differently
    body[at(1050)] = bankRow('Batched old 1?');
    const res = await send('upload-question-bank', BANK_HEADER, body, provider);
    expect(res).toEqual({
      status: 422,
      body: {
        errors: [
          { row: 1050, attribute: 'question', errors: [BANK_MSG.duplicate] },
          { row: 1090, attribute: 'question', errors: [BANK_MSG.duplicateInFile.replace('{row}', '2')] },
        ],
      },
    });
    expect(await stored('far')).toBe(0);
    expect((await send('upload-question-bank', BANK_HEADER, rows('far'), provider)).body).toEqual({
      message: MSG.recordAdded,
      count: ROWS,
    });
    expect(await stored('far')).toBe(ROWS);
  }, 120_000);
});

describe('certifications and syllabus', () => {
  const sample = IMPORT_TEMPLATES.certification.sample as Record<string, Cell>;
  const certRows = (tag: string) =>
    Array.from({ length: ROWS }, (_, i) =>
      CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? `Batched ${tag} ${i}` : (sample[c] ?? null))),
    );
  const certs = async (tag: string) =>
    (
      await t.deps.db
        .select({ n: count() })
        .from(certifications)
        .where(like(certifications.name, `Batched ${tag} %`))
    )[0]!.n;

  it('an unknown master item in the last row of the third batch rolls back the first two', async () => {
    const body = certRows('late');
    body[at(1101)]![CERTIFICATION_IMPORT_COLUMNS.indexOf('product')] = 'Oracle Cloud';
    const res = await send('upload-certification-master', CERTIFICATION_IMPORT_COLUMNS, body, admin);
    expect(res).toEqual({
      status: 422,
      body: { errors: [{ row: 1101, attribute: 'product', errors: ['The selected product is invalid.'] }] },
    });
    expect(await certs('late')).toBe(0);
  }, 120_000);

  it('a syllabus row that breaks the schema in the third batch rolls back the first two', async () => {
    const tr = await makeTraining(t, provider);
    const body = Array.from({ length: ROWS }, (_, i): Cell[] => [`Topic ${i}`, null, null]);
    body[at(1001)] = ['Topic late', 'not a time', null];
    const res = await send(
      'upload-training-syllabus',
      IMPORT_TEMPLATES['training-syllabus'].columns,
      body,
      provider,
      tr.slug,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { row: number }) => e.row)).toEqual([1001]);
    const [n] = await t.deps.db
      .select({ n: count() })
      .from(syllabusTopics)
      .where(eq(syllabusTopics.training_id, tr.id));
    expect(n!.n).toBe(0);
  }, 120_000);
});

describe('lab assignment', () => {
  it('an e-mail repeated in the second batch leaves every lab of the first batch free', async () => {
    const n = 520;
    const tag = Math.random().toString(36).slice(2, 8);
    await t.deps.db.insert(vms).values(
      Array.from({ length: n }, (_, i) => ({
        vm_name: `batch-${tag}-${i}`,
        name: `Batch ${i}`,
        image: 'ubuntu',
        protocol: 'ssh',
        zone: 'local',
        ram: 2,
        storage: 10,
        engine: 'local',
        owner_user_id: providerId,
      })),
    );
    const body = Array.from({ length: n }, (_, i): Cell[] => [
      `F${i}`,
      `L${i}`,
      `lab${i}-${tag}@batches.test`,
      9000000000 + i,
    ]);
    body[at(515)]![2] = emailAt(body, 2);
    const res = await send('vm-assign-to-user', IMPORT_TEMPLATES['training-user'].columns, body, provider);
    expect(res).toEqual({
      status: 422,
      body: { errors: [{ row: 515, attribute: 'email', errors: ['The email appears more than once in the file.'] }] },
    });
    const assigned = await t.deps.db
      .select({ n: count() })
      .from(vms)
      .where(and(like(vms.vm_name, `batch-${tag}-%`), isNotNull(vms.assigned_user_id)));
    expect(assigned[0]!.n).toBe(0);
    const created = await t.deps.db
      .select({ n: count() })
      .from(users)
      .where(
        inArray(
          users.email,
          body.map((r) => String(r[2])),
        ),
      );
    expect(created[0]!.n).toBe(0);
  }, 120_000);
});

describe('the reader', () => {
  it('hands the rows over in batches and reads at most two batches ahead of its caller', async () => {
    const file = book([['email'], ...Array.from({ length: 3000 }, (_, i) => [`r${i}@batches.test`])]);
    const reader = await SheetReader.open(file, { maxRows: 5000, batchRows: 100 });
    try {
      const first = await reader.next();
      expect(first).toHaveLength(100);
      expect(first![0]).toEqual({ row: 1, cells: ['email'] });
      // the worker has had time to read far ahead, had it been allowed to
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(reader.buffered).toBeLessThanOrEqual(2);
      let rows = first!.length;
      for (let batch = await reader.next(); batch; batch = await reader.next()) {
        expect(batch.length).toBeLessThanOrEqual(100);
        expect(reader.buffered).toBeLessThanOrEqual(2);
        rows += batch.length;
      }
      expect(rows).toBe(3001);
      expect(reader.truncated).toBe(false);
    } finally {
      reader.close();
    }
  }, 60_000);
});
