import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedFields, recordAudit } from '../src/platform/audit';
import { createTestApp, type TestApp } from './helpers';
import { tokenFor } from './org-fixtures';
import { bankBody, image, postForm, profileFields, validAadhar } from './trainers-support';

/**
 * A trainer's identity and bank numbers are readable only through their encrypted columns: not in
 * the embedded database's files (tables, write-ahead log), not in stored files, not in the audit
 * trail or its export, not in the log. On PostgreSQL the server controls the tables (scanned as
 * text through SQL), the export and the log.
 */

const PAN = 'KLMNO6789P';
/** a GSTIN carries its holder's PAN in characters 3 to 12 */
const GSTIN = `29${PAN}1ZH`; // its check character (H) is right
const AADHAR = validAadhar('87654321098');
const ACCOUNT = '918273645501';
const ACCOUNT_UPDATED = '556677889900';
const IBAN = 'GB29NWBK60161331926819';
const SECRETS = { PAN, AADHAR, ACCOUNT, ACCOUNT_UPDATED, IBAN };
/** a clear value saved beside them: the scans must find it, or they prove nothing */
const MARKER = 'Marker-Base-Qx7Zw';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let dataDir: string;
let t: TestApp;
let log = '';
let auditExport = '';
// biome-ignore lint/suspicious/noExplicitAny: asserted field by field
let adminBankList: any;

/** Every file under `dir`, read whole. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Which of the values occur in `text` (case-insensitive: a PAN could be stored lower-case). */
function found(text: string, values: Record<string, string>): string[] {
  const lower = text.toLowerCase();
  return Object.entries(values)
    .filter(([, v]) => lower.includes(v.toLowerCase()))
    .map(([k]) => k);
}

/** The data folder's bytes (PGlite's tables and WAL, stored pictures), or on PostgreSQL every table as text. */
async function storedText(): Promise<string> {
  if (!onPostgres)
    return filesUnder(dataDir)
      .map((f) => readFileSync(f).toString('latin1'))
      .join('\n');
  const tables = await t.deps.db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const rows = (tables as unknown as { rows?: { name: string }[] }).rows ?? (tables as unknown as { name: string }[]);
  let out = '';
  for (const { name } of rows) {
    const dump = await t.deps.db.execute<{ row: string }>(sql.raw(`select t::text as row from "${name}" t`));
    const lines = (dump as unknown as { rows?: { row: string }[] }).rows ?? (dump as unknown as { row: string }[]);
    out += lines.map((l) => l.row).join('\n');
  }
  return out;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tl-kyc-'));
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  t = await createTestApp(
    { LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir, LOG_LEVEL: 'trace' },
    { logStream: stream, ...(onPostgres ? {} : { databaseUrl: path.join(dataDir, 'pglite') }) },
  );
  const trainer = (await t.loginAs({ role: 'trainer' })).token;
  const admin = await tokenFor(t, 'admin');

  // the trainer's profile (multipart, with a picture), refused once and then saved
  const fields = profileFields({ pan_no: PAN, aadhar_no: AADHAR, GSTIN_no: GSTIN, base_location: MARKER });
  const refused = await postForm(t, 'update-trainer-profile', trainer, { ...fields, dob: 'not a date' });
  expect(refused.status).toBe(422);
  const saved = await postForm(t, 'update-trainer-profile', trainer, fields, [
    { field: 'address_proof', filename: 'proof.png', data: await image('png', 200) },
  ]);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const profile = await t.post('get-trainer-profile', {}, trainer);
  expect(profile.body.success).toMatchObject({ pan_no: PAN, aadhar_no: AADHAR, GSTIN_no: GSTIN });

  // bank details: added, updated, read by the trainer and (audited) by the admin
  const added = await t.post('add-bank-details', bankBody({ account_number: ACCOUNT, iban_code: IBAN }), trainer);
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const id = added.body.id as number;
  const updated = await t.post(
    'update-bank-details',
    bankBody({ id, account_number: ACCOUNT_UPDATED, iban_code: IBAN }),
    trainer,
  );
  expect(updated.status).toBe(200);
  const whole = await t.post('get-bank-details', { id }, admin);
  expect(whole.body.success).toMatchObject({ account_number: ACCOUNT_UPDATED, iban_code: IBAN });
  adminBankList = (await t.post('admin-bank-details-list', {}, admin)).body;

  // an audited change that carries the numbers (as an admin form would) goes through the audit writer
  const auth = await t.loginAs({ role: 'admin' });
  await recordAudit(t.deps, { user: auth.user, sessionId: 0, token: auth.token }, null, {
    action: 'update-trainer-profile',
    target_type: 'trainer-profile',
    target_id: 1,
    before: { base_location: null },
    after: { base_location: MARKER, pan_no: PAN, aadhar_no: AADHAR, GSTIN_no: GSTIN, account_number: ACCOUNT },
  });
  // a log line that carries them beside the message
  t.app.log.info({ body: { pan_no: PAN, aadhar_no: AADHAR, account_number: ACCOUNT, note: MARKER } }, 'kyc form');

  const csv = await t.app.inject({
    method: 'POST',
    url: '/api/export-audit-log',
    headers: { authorization: `Bearer ${admin}` },
    payload: {},
  });
  expect(csv.statusCode).toBe(200);
  auditExport = csv.body;
  if (!onPostgres) await t.close();
});

afterAll(async () => {
  if (onPostgres) await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('KYC values outside their encrypted columns', () => {
  it('the audit writer redacts identity and bank numbers by their field names', () => {
    const changes = changedFields(null, { pan_no: PAN, aadhar_no: AADHAR, account_number: ACCOUNT, GSTIN_no: GSTIN });
    expect(found(JSON.stringify(changes), SECRETS)).toEqual([]);
    expect(changes.pan_no).toEqual({ before: undefined, after: '[redacted]' });
  });

  it(`none in the ${onPostgres ? 'tables (as text)' : 'data folder (tables, write-ahead log, stored files)'}`, async () => {
    const stored = await storedText();
    expect(stored).toContain(MARKER);
    expect(found(stored, SECRETS)).toEqual([]);
  });

  it('lists show the account number and the IBAN masked', () => {
    expect(adminBankList.list[0]).toMatchObject({ account_number: 'XXXXXXXX9900', iban_code: `${'X'.repeat(18)}6819` });
    expect(found(JSON.stringify(adminBankList), SECRETS)).toEqual([]);
  });

  it('none in the audit export', () => {
    expect(auditExport).toContain(MARKER);
    expect(auditExport).toContain('update-trainer-profile');
    expect(found(auditExport, SECRETS)).toEqual([]);
  });

  it('none in the log', () => {
    expect(log).toContain(MARKER);
    expect(log).toContain('/api/update-trainer-profile');
    expect(found(log, SECRETS)).toEqual([]);
  });
});
