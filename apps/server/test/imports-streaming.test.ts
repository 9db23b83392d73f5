import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_TEMPLATES } from '@trainlab/contract';
import { count, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { certificationMasters, certifications } from '../src/db/schema';
import { importRows } from '../src/platform/excel';
import { parseSheet } from '../src/platform/excel/parse';
import { createTestApp, type TestApp } from './helpers';

/** .xlsx files are read by ExcelJS's streaming reader whatever wrote them; the row limit is configurable. */

const schema = z.object({ email: z.email(), qty: z.coerce.number().int().min(1), note: z.string().optional() });
const columns = ['email', 'qty', 'note'];

async function excelJsBook(fill: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Names of a ZIP's entries in stored order. */
function entryOrder(zip: Buffer): string[] {
  const names: string[] = [];
  for (let p = 0; zip.readUInt32LE(p) === 0x04034b50; ) {
    const name = zip.readUInt16LE(p + 26);
    names.push(zip.toString('utf8', p + 30, p + 30 + name));
    p += 30 + name + zip.readUInt16LE(p + 28) + zip.readUInt32LE(p + 18);
  }
  return names;
}

describe('the streaming .xlsx reader', () => {
  it('reads a workbook written by ExcelJS: rich text, formula results, hyperlinks, dates, a later first column', async () => {
    const file = await excelJsBook((wb) => {
      const ws = wb.addWorksheet('People');
      ws.getCell('B2').value = 'Email';
      ws.getCell('C2').value = 'Qty';
      ws.getCell('D2').value = { richText: [{ text: 'No' }, { font: { bold: true }, text: 'te' }] };
      ws.getCell('B3').value = { text: 'a@b.test', hyperlink: 'mailto:a@b.test' };
      ws.getCell('C3').value = { formula: '1+1', result: 2 };
      ws.getCell('D3').value = new Date(Date.UTC(2026, 0, 2));
      ws.getCell('B5').value = '  c@d.test  ';
      ws.getCell('C5').value = 3;
      // a second sheet is never read
      wb.addWorksheet('Other').getCell('A1').value = 'not an e-mail';
    });
    expect(await importRows({ file, filename: 'x.xlsx', schema, columns })).toEqual([
      { row: 3, data: { email: 'a@b.test', qty: 2, note: '2026-01-02T00:00:00.000Z' } },
      { row: 5, data: { email: 'c@d.test', qty: 3 } },
    ]);
  });

  it('reads the shared strings however the archive orders its parts (SheetJS stores them after the sheet)', async () => {
    const { createRequire } = await import('node:module');
    const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx');
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([columns, ['a@b.test', 1, 'shared']]), 'Sheet1');
    const file = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true, bookSST: true }) as Buffer;
    const order = entryOrder(file);
    expect(order.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(order.indexOf('xl/sharedStrings.xml'));
    expect(order.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(order.indexOf('xl/workbook.xml'));
    const sheet = await parseSheet(file, { maxRows: 10 });
    expect(sheet).toEqual({ startRow: 0, rows: [columns, ['a@b.test', '1', 'shared']], truncated: false, counted: 2 });
  });

  it('reads every row up to the limit; over it, the raw count refuses before a row is parsed', async () => {
    const file = await excelJsBook((wb) => {
      const ws = wb.addWorksheet('S');
      ws.addRow(columns);
      for (let i = 0; i < 50; i++) ws.addRow([`u${i}@x.test`, 1]);
    });
    const sheet = await parseSheet(file, { maxRows: 60 });
    expect(sheet.rows).toHaveLength(51);
    expect(sheet.truncated).toBe(false);
    // the raw count refuses before parsing: nothing read at all, and the count stops one row past
    const over = await parseSheet(file, { maxRows: 20 });
    expect(over).toMatchObject({ rows: [], truncated: true, counted: 21 });
  });
});

describe('IMPORT_MAX_ROWS', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ IMPORT_MAX_ROWS: '3', IMPORT_MAX_FILE_BYTES: String(16 * 1024) });
    admin = (await t.loginAs({ role: 'admin' })).token;
    const sample = IMPORT_TEMPLATES.certification.sample as Record<string, string | number>;
    await t.deps.db.insert(certificationMasters).values([
      { type: 'CertificationType', name: String(sample.certification_type) },
      { type: 'Product', name: String(sample.product) },
      { type: 'RolesType', name: String(sample.role) },
      { type: 'Exam', name: String(sample.exam) },
      { type: 'CertificationRoles', name: String(sample.certification_role) },
    ]);
  });
  afterAll(() => t.close());

  const book = (rows: number) => {
    const sample = IMPORT_TEMPLATES.certification.sample as Record<string, string | number>;
    return excelJsBook((wb) => {
      const ws = wb.addWorksheet('S');
      ws.addRow([...CERTIFICATION_IMPORT_COLUMNS]);
      for (let i = 0; i < rows; i++) {
        ws.addRow(CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? `Limit ${rows}-${i}` : (sample[c] ?? null))));
      }
    });
  };
  const upload = async (file: Buffer) => {
    const boundary = '----limit';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-certification-master',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${admin}` },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('sets the limit of every import: exactly the limit goes in, one more is refused as a file error', async () => {
    expect(await upload(await book(3))).toMatchObject({ status: 200, body: { count: 3 } });
    expect(await upload(await book(4))).toEqual({
      status: 422,
      body: { file: ['The file must not have more than 3 rows.'] },
    });
  });

  it('the legacy .xls too: exactly the limit goes in, one more is refused and nothing is written', async () => {
    const { createRequire } = await import('node:module');
    const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx');
    const sample = IMPORT_TEMPLATES.certification.sample as Record<string, string | number>;
    const xls = (rows: number, tag: string) => {
      const wb = XLSX.utils.book_new();
      const body = Array.from({ length: rows }, (_, i) =>
        CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? `Xls ${tag} ${i}` : (sample[c] ?? null))),
      );
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[...CERTIFICATION_IMPORT_COLUMNS], ...body]), 'S');
      return XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    };
    const stored = async (tag: string) =>
      (
        await t.deps.db
          .select({ n: count() })
          .from(certifications)
          .where(like(certifications.name, `Xls ${tag} %`))
      )[0]!.n;
    expect(await upload(xls(3, 'at'))).toMatchObject({ status: 200, body: { count: 3 } });
    expect(await stored('at')).toBe(3);
    expect(await upload(xls(4, 'over'))).toEqual({
      status: 422,
      body: { file: ['The file must not have more than 3 rows.'] },
    });
    expect(await stored('over')).toBe(0);
  });

  it('IMPORT_MAX_FILE_BYTES sets the largest file', async () => {
    const big = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(20 * 1024, 1)]);
    expect(await upload(big)).toEqual({
      status: 422,
      body: { file: ['The file must not be greater than 16 kilobytes.'] },
    });
  });
});
