/**
 * The code of the parsing worker, as plain CommonJS text run with `new Worker(code, { eval: true })`.
 * Kept as text (not a .ts module) so it runs the same under tsx, vitest and the esbuild bundle,
 * which has no separate worker entry. SheetJS is loaded from the absolute path the main thread
 * resolved (workerData.xlsxPath).
 *
 * It reads only the first sheet, only the first `maxRows + slack` rows and the first `maxColumns`
 * columns, without formulas, styles or HTML, and answers plain strings (or null) per cell, so
 * nothing the file controls reaches the main thread except those strings.
 */
export const PARSE_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const { file, xlsxPath, sheetRows, maxColumns, maxUnzippedBytes } = workerData;

// An .xlsx is a ZIP: before SheetJS sees it, every entry is inflated here with a hard output cap
// (and the sizes it declares are checked too, since SheetJS allocates by them), so a
// decompression bomb fails fast instead of filling memory. The first worksheet's rows are counted
// on its raw XML at the same time: a sheet over the row limit is refused before SheetJS builds a
// single row of it. Answers that count (-1 when there is no sheet1 part).
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
  return rows;
}

function cellText(v) {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  const s = String(v).trim();
  return s === '' ? null : s;
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

try {
  const XLSX = require(xlsxPath);
  const data = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const counted = checkZip(data, maxUnzippedBytes);
  parentPort.postMessage(
    counted > sheetRows
      ? { ok: true, startRow: 0, rows: [], truncated: true, counted }
      : { ...readFirstSheet(XLSX, data), counted },
  );
} catch (e) {
  parentPort.postMessage({ ok: false });
}
`;
