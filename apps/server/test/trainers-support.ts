import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verhoeffValid } from '@trainlab/contract';
import sharp from 'sharp';
import { categories } from '../src/db/schema';
import { runDueJobs } from '../src/platform/jobs';
import { createTestApp, type TestApp } from './helpers';

/** A test app with its own data folder (pictures go through the file store). */
export async function trainerTestApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; cleanup: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-trainers-'));
  const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir, ...env });
  return {
    t,
    cleanup: async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A real PNG (or JPEG) of the given size. */
export const image = (format: 'png' | 'jpeg' = 'png', size = 600) =>
  sharp({ create: { width: size, height: Math.round(size / 2), channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();

export interface FilePart {
  field: string;
  filename: string;
  data: Buffer;
}

export function multipart(fields: Record<string, string | number | null | undefined>, files: FilePart[] = []) {
  const boundary = `----tl${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs a multipart form; answers status and parsed body. */
export async function postForm(
  t: TestApp,
  callPath: string,
  token: string | undefined,
  fields: Record<string, string | number | null | undefined>,
  files: FilePart[] = [],
) {
  const m = multipart(fields, files);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${callPath}`,
    payload: m.payload,
    headers: { ...m.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  return { status: res.statusCode, body: res.json() as any };
}

/** A valid Aadhar number: 11 digits and the Verhoeff check digit that completes them. */
export function validAadhar(stem = '23456789012'): string {
  for (let d = 0; d <= 9; d++) if (verhoeffValid(`${stem}${d}`)) return `${stem}${d}`;
  throw new Error('no check digit');
}
/** The same number with its check digit changed: fails the checksum only. */
export function badChecksumAadhar(): string {
  const good = validAadhar();
  const last = Number(good.slice(-1));
  return `${good.slice(0, -1)}${(last + 1) % 10}`;
}

export async function makeCategory(t: TestApp, name = `Cloud ${Math.random().toString(36).slice(2, 7)}`) {
  const [row] = await t.deps.db
    .insert(categories)
    .values({ name, slug: name.toLowerCase().replace(/\W+/g, '-') })
    .returning();
  return row!;
}

/** Runs the queued mails and answers the outbox. */
export async function sentMail(t: TestApp) {
  await runDueJobs(t.deps);
  return t.outbox();
}

export const bankBody = (over: Record<string, unknown> = {}) => ({
  bank_name: 'State Bank of India',
  bank_address: 'MG Road, Pune',
  bank_account_name: 'Tanvi Rao',
  account_number: '123456789012',
  account_type: 'Savings',
  ifsc_code: 'sbin0001234',
  micr_code: '411002003',
  iban_code: '',
  bsr_code: '0001234',
  ...over,
});

export const profileFields = (over: Record<string, string | number | null> = {}) => ({
  first_name: 'Tanvi',
  last_name: 'Rao',
  email: `tanvi-${Math.random().toString(36).slice(2, 8)}@example.test`,
  mobile_no: '9876543210',
  email2: '',
  base_location: 'Pune',
  address: '12 Lane, Pune',
  dob: '1990-04-01',
  aadhar_no: validAadhar(),
  pan_no: 'abcde1234f',
  GSTIN_no: '27abcde1234f1z0',
  state_code: '27',
  MSME_reg_no: 'udyam-mh-01-0000001',
  type_of_enterprise: 'Micro',
  category_of_service: 'Training',
  services_rendered: 'Cloud trainings',
  vat_no: '',
  experience_over_all: 8,
  ...over,
});
