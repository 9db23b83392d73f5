/**
 * The code of the parsing worker, as plain CommonJS text run with `new Worker(code, { eval: true })`.
 * Kept as text (not a .ts module) so it runs the same under tsx, vitest and the esbuild bundle,
 * which has no separate worker entry. The parsers are loaded from the absolute paths the main
 * thread resolved (workerData.excelPath, workerData.xlsxPath).
 *
 * An .xlsx is read row by row with ExcelJS's streaming reader (no workbook model in memory, and
 * no SheetJS, whose registry release has open advisories, on the common path); SheetJS reads only
 * the legacy .xls (BIFF) format the product still accepts. Either way it reads only the first
 * sheet, only the first `maxRows + slack` rows and the first `maxColumns` columns, without formulas
 * or HTML, and answers plain strings (or null) per cell, so nothing the file controls reaches the
 * main thread except those strings.
 */
export const PARSE_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const { file, xlsxPath, excelPath, sheetRows, maxColumns, maxUnzippedBytes } = workerData;

// An .xlsx is a ZIP: before SheetJS sees it, every entry is inflated here with a hard output cap
// (and the sizes it declares are checked too, since SheetJS allocates by them), so a
// decompression bomb fails fast instead of filling memory. The first worksheet's rows are counted
// on its raw XML at the same time: a sheet over the row limit is refused before SheetJS builds a
// single row of it. Answers that count (-1 when there is no sheet1 part) and the parts the streaming
// reader needs, in its order (nothing for a file that is not a ZIP: the legacy .xls).
function countRows(xml) {
  let n = 0;
  for (const tag of ['<row', '<x:row']) {
    let at = xml.indexOf(tag);
    while (at !== -1) {
      const next = xml[at + tag.length];
      if (next === 0x20 || next === 0x3e || next === 0x09 || next === 0x0a || next === 0x0d) n++;
      at = xml.indexOf(tag, at + tag.length);
    }
  }
  return n;
}
function checkZip(buf, budget) {
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) return;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  let actual = 0;
  let declared = 0;
  let rows = -1;
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const usz = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new Error('bad local header');
    declared += Math.max(usz, buf.readUInt32LE(local + 22));
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start > buf.length) throw new Error('bad local header');
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({ name, local });
    if (method === 8) {
      const part = zlib.inflateRawSync(buf.subarray(start), { maxOutputLength: Math.max(1, budget - actual) });
      actual += part.length;
      if (name === 'xl/worksheets/sheet1.xml') rows = countRows(part);
    } else {
      const size = buf.readUInt32LE(p + 20);
      actual += size;
      if (name === 'xl/worksheets/sheet1.xml') rows = countRows(buf.subarray(start, start + size));
    }
    if (actual > budget || declared > budget) throw new Error('too large when unpacked');
    p += 46 + nameLen + extraLen + commentLen;
  }
  return { rows, streamable: inReadingOrder(buf, entries, buf.readUInt32LE(eocd + 16)) };
}

// ExcelJS's streaming reader takes the archive's entries in the order they are stored: a worksheet
// met before the workbook's relations, the workbook or the shared strings is spooled to a temporary
// file or, in some orders, refused. Writers differ (SheetJS stores the shared strings last), so the
// entries it needs are laid out again, each copied whole (local header, data, data descriptor), in
// the order it reads best, and the first worksheet last: other sheets and parts are left out.
function inReadingOrder(buf, entries, centralStart) {
  const sorted = entries.slice().sort((a, b) => a.local - b.local);
  const slice = (entry) => {
    const next = sorted.find((e) => e.local > entry.local);
    return buf.subarray(entry.local, next ? next.local : centralStart);
  };
  const wanted = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml', 'xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml'];
  const parts = [];
  for (const name of wanted) {
    const entry = entries.find((e) => e.name === name);
    if (entry) parts.push(slice(entry));
  }
  // an empty end-of-central-directory record: the reader stops there instead of running out of file
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  parts.push(end);
  return Buffer.concat(parts);
}

function cellText(v) {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  const s = String(v).trim();
  return s === '' ? null : s;
}

// ExcelJS cell values: rich text, formulas (their cached result), hyperlinks (their text), errors
function excelValue(v) {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v;
  if (Array.isArray(v.richText)) return v.richText.map((r) => (r && r.text) || '').join('');
  if ('result' in v) return excelValue(v.result);
  if ('text' in v) return excelValue(v.text);
  return null;
}

// Rows as SheetJS's sheet_to_json answered them: from the first used row and column, blank rows
// between kept as [], each cell a trimmed string or null.
async function readFirstXlsxSheet(ExcelJS, data) {
  const { Readable } = require('node:stream');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    sharedStrings: 'cache',
    styles: 'cache', // a date is told apart from a number by its cell style
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const found = [];
  let truncated = false;
  let firstColumn = Infinity;
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      if (found.length >= sheetRows) { truncated = true; break; }
      const cells = [];
      const values = row.values || [];
      for (let c = 1; c < values.length && c <= maxColumns; c++) {
        const text = cellText(excelValue(values[c]));
        if (text !== null && c < firstColumn) firstColumn = c;
        cells[c - 1] = text;
      }
      if (cells.some((x) => x !== null && x !== undefined)) found.push({ number: row.number, cells });
    }
    break; // the first sheet only
  }
  if (found.length === 0) return { ok: true, startRow: 0, rows: [], truncated: false };
  const start = found[0].number;
  const from = firstColumn - 1;
  const width = Math.min(maxColumns, found.reduce((m, r) => Math.max(m, r.cells.length), 0) - from);
  const rows = [];
  for (const { number, cells } of found) {
    while (start + rows.length < number) rows.push([]);
    const out = [];
    for (let c = 0; c < width; c++) out.push(cells[from + c] === undefined ? null : cells[from + c]);
    rows.push(out);
  }
  return { ok: true, startRow: start - 1, rows, truncated };
}

function readFirstSheet(XLSX, data) {
  const wb = XLSX.read(data, {
    type: 'buffer',
    dense: true,
    sheets: 0,
    sheetRows,
    cellDates: true,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
    cellText: false,
    bookVBA: false,
    bookDeps: false,
    WTF: false,
  });
  const name = wb.SheetNames && wb.SheetNames[0];
  const sheet = name ? wb.Sheets[name] : undefined;
  if (!sheet || !sheet['!ref']) return { ok: true, startRow: 0, rows: [], truncated: false };
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const full = sheet['!fullref'] ? XLSX.utils.decode_range(sheet['!fullref']) : range;
  const truncated = full.e.r > range.e.r;
  if (range.e.c - range.s.c >= maxColumns) range.e.c = range.s.c + maxColumns - 1;
  const raw = XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, defval: null, blankrows: true, range });
  const rows = raw.map((r) => (Array.isArray(r) ? r.map(cellText) : []));
  return { ok: true, startRow: range.s.r, rows, truncated };
}

(async () => {
  const data = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const zip = checkZip(data, maxUnzippedBytes);
  const counted = zip ? zip.rows : -1;
  if (counted > sheetRows) return { ok: true, startRow: 0, rows: [], truncated: true, counted };
  const sheet = zip
    ? await readFirstXlsxSheet(require(excelPath), zip.streamable)
    : readFirstSheet(require(xlsxPath), data);
  return { ...sheet, counted };
})().then(
  (answer) => parentPort.postMessage(answer),
  () => parentPort.postMessage({ ok: false }),
);
`;
