import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { deflateRawSync } from 'node:zlib';
import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_TEMPLATES, type Role } from '@trainlab/contract';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as XLSXTypes from 'xlsx';
import { z } from 'zod';
import { certifications } from '../src/db/schema';
import { importRows, templateFor } from '../src/platform/excel';
import type { TestApp } from './helpers';
import { ALL_ROLES, certificationImportApp, expectAccess, postMultipart } from './master-support';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;

let t: TestApp;
let tokens: Record<Role, string>;
beforeAll(async () => {
  ({ t, tokens } = await certificationImportApp());
});
afterAll(() => t.close());

const sample = IMPORT_TEMPLATES.certification.sample;
type Cell = string | number | null;

function book(rows: Cell[][], bookType: 'xlsx' | 'biff8' = 'xlsx'): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
}
const row = (over: Record<string, Cell> = {}): Cell[] =>
  CERTIFICATION_IMPORT_COLUMNS.map((c) => (c in over ? over[c]! : (sample[c] as Cell)));
const sheet = (...rows: Cell[][]) => book([[...CERTIFICATION_IMPORT_COLUMNS], ...rows]);

/** A minimal ZIP (deflate, no CRC: SheetJS does not check it) for hand-made hostile files. */
function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(packed.length, 20);
    cd.writeUInt32LE(e.data.length, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(cd, name);
    offset += 30 + name.length + packed.length;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

const upload = (content: Buffer | string, filename = 'certifications.xlsx', token = tokens.admin) =>
  postMultipart(t, 'upload-certification-master', [{ name: 'file', filename, content }], token);
const stored = async () => (await t.deps.db.select({ n: count() }).from(certifications))[0]!.n;

describe('upload-certification-master (certifications from Excel)', () => {
  it('admin only', async () => {
    await expectAccess(t, tokens, 'upload-certification-master', {}, ['admin']);
    const res = await upload(sheet(row()), 'c.xlsx', tokens.provider);
    expect(res.status).toBe(403);
  });

  it('imports every row of a good .xlsx, resolving master names case-insensitively', async () => {
    const before = await stored();
    const res = await upload(
      sheet(
        row({ name: 'Imported A' }),
        row({ name: 'Imported B', product: 'AMAZON WEB SERVICES', level: 'Advance', recommended_experiance: null }),
        row({ name: 'Imported C', remark: 'third', cost_inr: '999.5' }),
      ),
    );
    expect(res).toEqual({ status: 200, body: { message: 'Record Added Successfully!', count: 3 } });
    expect(await stored()).toBe(before + 3);
    const list = (await t.post('certification-list', { search: 'Imported' })).body.list;
    expect(list.map((c: { name: string }) => c.name)).toEqual(['Imported A', 'Imported B', 'Imported C']);
    expect(list[1]).toMatchObject({
      product_name: 'Amazon Web Services',
      certification_type: 'AWS',
      exam_name: 'SAA-C03',
      level: 'Advance',
      recommended_experience: 0,
      cost_doller: 150,
    });
    expect(list[2]).toMatchObject({ remark: 'third', cost_inr: 999.5 });
  });

  it('reads .xls (BIFF8) too, and headers regardless of case and spaces', async () => {
    const header = CERTIFICATION_IMPORT_COLUMNS.map((c) => c.toUpperCase().replace(/_/g, ' '));
    const res = await upload(book([header, row({ name: 'From XLS' })], 'biff8'), 'legacy.XLS');
    expect(res).toEqual({ status: 200, body: { message: 'Record Added Successfully!', count: 1 } });
  });

  it('one bad row: 422 with row numbers (header is row 1) and nothing imported', async () => {
    const before = await stored();
    const res = await upload(
      sheet(
        row({ name: 'Good 1' }),
        [],
        row({ name: null, level: 'Expert' }),
        row({ name: 'Good 2', cost_doller: 'ten', exam_link: 'nope' }),
      ),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      errors: [
        { row: 4, attribute: 'name', errors: ['The name field is required.'] },
        { row: 4, attribute: 'level', errors: ['The selected level is invalid.'] },
        { row: 5, attribute: 'exam_link', errors: ['The exam link must be a valid URL.'] },
        { row: 5, attribute: 'cost_doller', errors: ['The cost doller must be a number.'] },
      ],
    });
    expect(await stored()).toBe(before);
  });

  it('an unknown master item is a row error and nothing is imported', async () => {
    const before = await stored();
    const res = await upload(sheet(row({ name: 'Fine' }), row({ name: 'Unknown product', product: 'Oracle Cloud' })));
    expect(res).toEqual({
      status: 422,
      body: { errors: [{ row: 3, attribute: 'product', errors: ['The selected product is invalid.'] }] },
    });
    expect(await stored()).toBe(before);
  });

  it('file required: JSON body, a form without a file part, an empty file', async () => {
    const required = { status: 422, body: { file: ['The file field is required.'] } };
    expect(await t.post('upload-certification-master', {}, tokens.admin)).toEqual(required);
    expect(
      await postMultipart(t, 'upload-certification-master', [{ name: 'note', content: 'x' }], tokens.admin),
    ).toEqual(required);
    expect(await upload(Buffer.alloc(0))).toEqual(required);
  });

  it('a cell holding a NUL character (an .xls can carry one) is a row error, and nothing is written', async () => {
    const before = await stored();
    const file = book([[...CERTIFICATION_IMPORT_COLUMNS], row({ name: 'Null\u0000Cert' })], 'biff8');
    expect(await upload(file, 'n.xls')).toEqual({
      status: 422,
      body: { errors: [{ row: 2, attribute: 'name', errors: ['The name format is invalid.'] }] },
    });
    expect(await stored()).toBe(before);
  });

  it('wrong type: a .txt renamed .xlsx, a .csv, an .xlsx named .txt', async () => {
    const wrong = { status: 422, body: { file: ['The file must be a file of type: xls, xlsx.'] } };
    expect(await upload('just some text, not a workbook', 'renamed.xlsx')).toEqual(wrong);
    expect(await upload(`${CERTIFICATION_IMPORT_COLUMNS.join(',')}\nA,Beginner`, 'certs.csv')).toEqual(wrong);
    expect(await upload(`${CERTIFICATION_IMPORT_COLUMNS.join(',')}\nA,Beginner`, 'certs.xls')).toEqual(wrong);
    expect(await upload(sheet(row()), 'certs.txt')).toEqual(wrong);
    expect(await upload(sheet(row()), 'certs')).toEqual(wrong);
  });

  it('oversized (> 5 MB): a clear 422 on file', async () => {
    const big = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    expect(await upload(big, 'big.xlsx')).toEqual({
      status: 422,
      body: { file: ['The file must not be greater than 5120 kilobytes.'] },
    });
  });

  it('corrupt files (random bytes behind a ZIP or OLE signature) are a clear 422', async () => {
    const unreadable = { status: 422, body: { file: ['The file could not be read.'] } };
    for (let i = 0; i < 3; i++) {
      expect(await upload(Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(4000)]), 'corrupt.xlsx')).toEqual(
        unreadable,
      );
    }
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await upload(Buffer.concat([ole, randomBytes(4000)]), 'corrupt.xls')).toEqual(unreadable);
    // a truncated real workbook
    const good = sheet(row());
    expect(await upload(good.subarray(0, Math.floor(good.length / 2)), 'cut.xlsx')).toEqual(unreadable);
    // the server is still fine
    expect((await upload(sheet(row({ name: 'After corrupt' })))).status).toBe(200);
  });

  it('a decompression bomb (small file, > 100 MB unpacked) is refused quickly', async () => {
    const sheetXml = Buffer.concat([
      Buffer.from(
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
      ),
      Buffer.alloc(110 * 1024 * 1024, 0x20),
      Buffer.from('</sheetData></worksheet>'),
    ]);
    const bomb = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types/>') },
      { name: 'xl/worksheets/sheet1.xml', data: sheetXml },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    expect(await upload(bomb, 'bomb.xlsx')).toEqual({ status: 422, body: { file: ['The file could not be read.'] } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('empty sheet: header only, or no cells at all', async () => {
    const noRows = { status: 422, body: { file: ['The file has no rows.'] } };
    expect(await upload(sheet())).toEqual(noRows);
    expect(await upload(sheet([], [null, null]))).toEqual(noRows);
    expect(await upload(book([]))).toEqual(noRows);
  });

  it('missing columns are named', async () => {
    const res = await upload(
      book([
        ['name', 'level'],
        ['X', 'Beginner'],
      ]),
    );
    expect(res.status).toBe(422);
    expect(res.body.file[0]).toMatch(/^The file is missing the columns: certification_type, product, role/);
  });

  it('a broken multipart body is a 422 on file', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-certification-master',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', authorization: `Bearer ${tokens.admin}` },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nPK\u0003\u0004 no end',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json())).toEqual(['file']);
  });

  it('two files in one form are refused', async () => {
    const file = sheet(row());
    const res = await postMultipart(
      t,
      'upload-certification-master',
      [
        { name: 'file', filename: 'a.xlsx', content: file },
        { name: 'file', filename: 'b.xlsx', content: file },
      ],
      tokens.admin,
    );
    expect(res).toEqual({ status: 422, body: { file: ['Only one file may be uploaded.'] } });
  });
});

describe('importRows (the pipeline)', () => {
  const schema = z.object({ email: z.email(), qty: z.coerce.number().int().min(1) });
  const columns = ['email', 'qty'];

  it('returns validated rows with their spreadsheet row numbers', async () => {
    const file = book([['Email', 'Qty', 'ignored'], ['a@b.test', 2, 'x'], [], ['c@d.test', '3', null]]);
    expect(await importRows({ file, filename: 'x.xlsx', schema, columns })).toEqual([
      { row: 2, data: { email: 'a@b.test', qty: 2 } },
      { row: 4, data: { email: 'c@d.test', qty: 3 } },
    ]);
  });

  it('too many rows is a 422 on file', async () => {
    const file = book([columns, ...Array.from({ length: 4 }, (_, i) => [`u${i}@x.test`, 1])]);
    await expect(importRows({ file, filename: 'x.xlsx', schema, columns, maxRows: 3 })).rejects.toMatchObject({
      status: 422,
      body: { file: ['The file must not have more than 3 rows.'] },
    });
    expect(await importRows({ file, filename: 'x.xlsx', schema, columns, maxRows: 4 })).toHaveLength(4);
  });

  it('a parse that exceeds the time limit is terminated: 422, not a hang', async () => {
    const file = book([columns, ['a@b.test', 1]]);
    await expect(importRows({ file, filename: 'x.xlsx', schema, columns, timeoutMs: 1 })).rejects.toMatchObject({
      status: 422,
      body: { file: ['The file could not be read.'] },
    });
  });

  it('row messages use the field wording', async () => {
    const file = book([columns, ['not-an-email', 0]]);
    await expect(importRows({ file, filename: 'x.xlsx', schema, columns })).rejects.toMatchObject({
      status: 422,
      body: {
        errors: [
          { row: 2, attribute: 'email', errors: ['The email must be a valid email address.'] },
          { row: 2, attribute: 'qty', errors: ['The qty must be at least 1.'] },
        ],
      },
    });
  });

  it('answers at most 200 row errors', async () => {
    const file = book([columns, ...Array.from({ length: 300 }, () => ['bad', 1])]);
    const err = await importRows({ file, filename: 'x.xlsx', schema, columns }).catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.body.errors).toHaveLength(200);
    expect(err.body.errors[199]).toEqual({
      row: 201,
      attribute: 'email',
      errors: ['The email must be a valid email address.'],
    });
  });

  it('templateFor builds an .xlsx with the header and the sample row', () => {
    const file = templateFor(['a', 'b', 'c'], { a: 'x', b: 2 });
    const wb = XLSX.read(file, { type: 'buffer' });
    expect(XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0] ?? '']!, { header: 1 })).toEqual([
      ['a', 'b', 'c'],
      ['x', 2, ''],
    ]);
  });
});

describe('download-template', () => {
  it('any signed-in role; 401 without a token; 422 for an unknown type', async () => {
    expect((await t.post('download-template', { type: 'certification' })).status).toBe(401);
    for (const role of ALL_ROLES) {
      expect((await t.post('download-template', { type: 'certification' }, tokens[role])).status).toBe(200);
    }
    expect(await t.post('download-template', { type: 'payroll' }, tokens.admin)).toEqual({
      status: 422,
      body: { type: ['The selected type is invalid.'] },
    });
    expect(await t.post('download-template', {}, tokens.admin)).toEqual({
      status: 422,
      body: { type: ['The type field is required.'] },
    });
  });

  it('answers the .xlsx template, which imports as is', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/download-template',
      headers: { authorization: `Bearer ${tokens.admin}` },
      payload: { type: 'certification' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="certification-template.xlsx"');
    const file = res.rawPayload;
    const wb = XLSX.read(file, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0] ?? '']!, { header: 1 }) as unknown[][];
    expect(rows[0]).toEqual([...CERTIFICATION_IMPORT_COLUMNS]);
    expect(rows[1]![0]).toBe(sample.name);
    expect(await upload(file, 'certification-template.xlsx')).toEqual({
      status: 200,
      body: { message: 'Record Added Successfully!', count: 1 },
    });
  });
});
