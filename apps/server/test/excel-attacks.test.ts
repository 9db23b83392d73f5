import { createRequire } from 'node:module';
import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_TEMPLATES, type Role } from '@trainlab/contract';
import { count } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as XLSXTypes from 'xlsx';
import { certifications } from '../src/db/schema';
import type { TestApp } from './helpers';
import { certificationImportApp, postMultipart } from './master-support';

/**
 * The spreadsheet parser's published advisories, each tried the way an attacker would (decision
 * 0053): SheetJS before 0.19.3 polluted Object.prototype from a crafted file (CVE-2023-30533: a
 * comment whose cell reference is `__proto__`), and before 0.20.2 had slow regular expressions on
 * XML and HTML input (CVE-2024-22363). The registry's `xlsx` stays at 0.18.5; the product uses the
 * republished 0.20.3 under that name, and only a legacy BIFF .xls (an OLE file) ever reaches it.
 */
const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;

let t: TestApp;
let tokens: Record<Role, string>;
beforeAll(async () => {
  ({ t, tokens } = await certificationImportApp());
});
afterAll(() => t.close());

const sample = IMPORT_TEMPLATES.certification.sample;
const row = (name: string) =>
  CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? name : (sample[c] as string | number | null)));
const upload = (content: Buffer | string, filename: string) =>
  postMultipart(t, 'upload-certification-master', [{ name: 'file', filename, content }], tokens.admin);
const stored = async () => (await t.deps.db.select({ n: count() }).from(certifications))[0]!.n;
const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();

function workbook(rows: (string | number | null)[][], sheetName = 'Sheet1') {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), sheetName);
  return wb;
}

/** CVE-2023-30533's pattern: an .xlsx whose sheet has a comment on the cell `__proto__`. */
async function protoCommentXlsx(): Promise<Buffer> {
  const wb = workbook([[...CERTIFICATION_IMPORT_COLUMNS], row('Proto Comment')]);
  const zip = await JSZip.loadAsync(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  zip.file(
    'xl/comments1.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>x</author></authors><commentList><comment ref="__proto__" authorId="0"><text><t>polluted</t></text></comment></commentList></comments>',
  );
  zip.file(
    'xl/worksheets/_rels/sheet1.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="../comments1.xml"/></Relationships>',
  );
  const types = await zip.file('[Content_Types].xml')!.async('string');
  zip.file(
    '[Content_Types].xml',
    types.replace(
      '</Types>',
      '<Override PartName="/xl/comments1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"/></Types>',
    ),
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A legacy .xls whose only sheet is named `__proto__` (written as ABCDEFGHI, then renamed in place). */
function protoSheetXls(): Buffer {
  const wb = workbook([[...CERTIFICATION_IMPORT_COLUMNS], row('Proto Sheet')], 'ABCDEFGHI');
  const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
  // BIFF8 stores the name as UTF-16
  const at = buf.indexOf(Buffer.from('ABCDEFGHI', 'utf16le'));
  expect(at).toBeGreaterThan(0);
  buf.write('__proto__', at, 'utf16le');
  return buf;
}

describe('the spreadsheet parser against its advisories', () => {
  it('CVE-2023-30533: reading a comment on the cell __proto__ leaves Object.prototype alone', async () => {
    const before = prototypeKeys();
    const file = await protoCommentXlsx();
    // the library itself, as a caller that handed it an .xlsx would (0.18.5 added Object.prototype.c)
    XLSX.read(file, { type: 'buffer' });
    XLSX.read(file, { type: 'buffer', dense: true });
    expect(prototypeKeys()).toEqual(before);
    expect(({} as Record<string, unknown>).c).toBeUndefined();
    // through the import, named .xlsx or .xls: read like any workbook, nothing polluted
    const n = await stored();
    expect(await upload(file, 'proto.xlsx')).toEqual({
      status: 200,
      body: { message: 'Record Added Successfully!', count: 1 },
    });
    expect(await upload(file, 'proto.xls')).toEqual({
      status: 200,
      body: { message: 'Record Added Successfully!', count: 1 },
    });
    expect(await stored()).toBe(n + 2);
    expect(prototypeKeys()).toEqual(before);
  });

  it('a legacy .xls whose sheet is named __proto__ imports its rows and pollutes nothing', async () => {
    const before = prototypeKeys();
    const file = protoSheetXls();
    const wb = XLSX.read(file, { type: 'buffer', dense: true });
    expect(wb.SheetNames).toEqual(['__proto__']);
    expect(prototypeKeys()).toEqual(before);
    const n = await stored();
    expect(await upload(file, 'proto-sheet.xls')).toEqual({
      status: 200,
      body: { message: 'Record Added Successfully!', count: 1 },
    });
    expect(await stored()).toBe(n + 1);
    expect(prototypeKeys()).toEqual(before);
  });

  it('CVE-2024-22363 (slow regular expressions on XML and HTML): such a file named .xls is refused unparsed', async () => {
    const n = await stored();
    const wrong = { status: 422, body: { file: ['The file must be a file of type: xls, xlsx.'] } };
    const attrs = ' a=b'.repeat(50_000);
    // XML Spreadsheet 2003 and an HTML table: formats SheetJS would sniff and read with its regexes
    const xml = `<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet><Table><Row${attrs}`;
    const html = `<html><body><table><tr><td${attrs}`;
    const started = Date.now();
    expect(await upload(xml, 'spreadsheet-2003.xls')).toEqual(wrong);
    expect(await upload(html, 'table.xls')).toEqual(wrong);
    expect(Date.now() - started).toBeLessThan(60_000); // a hang, not a speed limit: speed is in bench/
    expect(await stored()).toBe(n);
    expect(XLSX.version).toBe('0.20.3');
  });
});
