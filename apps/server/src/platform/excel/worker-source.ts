/**
 * The code of the parsing worker, as plain CommonJS text run with `new Worker(code, { eval: true })`.
 * Kept as text (not a .ts module) so it runs the same under tsx, vitest and the esbuild bundle,
 * which has no separate worker entry. The parsers are loaded from the absolute paths the main
 * thread resolved (workerData.excelPath, workerData.xlsxPath).
 *
 * An .xlsx is read row by row with ExcelJS's streaming reader (no workbook model in memory, and
 * no SheetJS on the common path); SheetJS (0.20.3, republished on the registry: decision 0054) reads
 * only the legacy .xls (BIFF) format the product still accepts. Either way it reads only the first
 * sheet, at most `maxRows` rows with a value and the first `maxColumns` columns, without formulas
 * or HTML, and answers plain strings (or null) per cell, so nothing the file controls reaches the
 * main thread except those strings.
 *
 * The rows are not answered at once: they go to the main thread in batches of `batchRows` rows
 * with a value ({type:'rows', rows:[[row number, cells], ...]}), and the worker sends a batch only
 * while it holds a credit: it starts with two and the main thread gives one back ('more') each time
 * it takes a batch, so at most two batches wait between the threads whatever the file's length and
 * however slowly the database writes. The end is {type:'end', truncated, counted}; any failure
 * {type:'error'}.
 */
export const PARSE_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { Readable } = require('node:stream');
const zlib = require('node:zlib');
const { file, xlsxPath, excelPath, maxRows, batchRows, maxColumns, maxUnzippedBytes } = workerData;

// Credits: a batch goes out only while the main thread has room for it (see the module comment).
let credits = 2;
let wake = null;
parentPort.on('message', (m) => {
  if (m !== 'more') return;
  credits++;
  if (wake) {
    const w = wake;
    wake = null;
    w();
  }
});
async function send(rows) {
  while (credits === 0) await new Promise((resolve) => { wake = resolve; });
  credits--;
  parentPort.postMessage({ type: 'rows', rows });
}

// Counts the rows of a worksheet's XML that hold a value, chunk by chunk as it is inflated: a row
// element with a non-empty <v> (a number, a shared string, a formula's result) or <t> (an inline
// string) inside. Rows with no value (formatted or empty formula results) are not counted, so the
// count is at least the rows the reader will find; it can only be higher by rows whose text is all
// blanks. Tags are read on bytes (they are ASCII in any encoding); the tail from the last '<' of a
// chunk waits for the next one, since a tag may be cut between chunks.
function rowCounter() {
  let carry = null;
  let inRow = false;
  let hasValue = false;
  let rows = 0;
  const named = (b, from, to, name) => {
    let start = from;
    for (let k = from; k < to; k++) if (b[k] === 0x3a) start = k + 1; // a namespace prefix (x:row)
    if (to - start !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (b[start + k] !== name.charCodeAt(k)) return false;
    return true;
  };
  const scan = (chunk) => {
    const b = carry ? Buffer.concat([carry, chunk]) : chunk;
    const cut = b.lastIndexOf(0x3c);
    let i = cut > 0 ? b.indexOf(0x3c) : -1;
    while (i !== -1 && i < cut) {
      let j = i + 1;
      const closing = b[j] === 0x2f;
      if (closing) j++;
      const nameStart = j;
      while (j < cut && b[j] !== 0x20 && b[j] !== 0x2f && b[j] !== 0x3e && b[j] !== 0x09 && b[j] !== 0x0a && b[j] !== 0x0d) j++;
      const gt = b.indexOf(0x3e, j);
      if (gt === -1 || gt > cut) break;
      const selfClosing = b[gt - 1] === 0x2f;
      if (named(b, nameStart, j, 'row')) {
        if (closing) {
          if (inRow && hasValue) rows++;
          inRow = false;
          if (rows > maxRows) return rows; // one past the limit: the rest is never looked at
        } else if (!selfClosing) {
          inRow = true;
          hasValue = false;
        }
      } else if (inRow && !closing && !selfClosing && b[gt + 1] !== 0x3c && (named(b, nameStart, j, 'v') || named(b, nameStart, j, 't'))) {
        hasValue = true;
      }
      i = b.indexOf(0x3c, gt + 1);
    }
    // a tail with no '<' is plain text; one longer than any real tag is dropped
    carry = cut === -1 || b.length - cut > 65536 ? null : Buffer.from(b.subarray(cut));
    return rows;
  };
  return { scan, count: () => rows };
}

// Inflates one entry chunk by chunk, handing each chunk to onChunk (false stops early): nothing of
// it is kept, so checking a large part costs no memory.
async function eachChunk(data, method, onChunk) {
  if (method === 0) {
    for (let at = 0; at < data.length; at += 65536) if (onChunk(data.subarray(at, at + 65536)) === false) return;
    return;
  }
  if (method !== 8) throw new Error('unsupported compression');
  const inflater = zlib.createInflateRaw();
  inflater.end(data);
  for await (const chunk of inflater) if (onChunk(chunk) === false) break;
  inflater.destroy();
}

// An .xlsx is a ZIP: before a parser sees it, every entry is inflated here (and dropped) with a
// hard cap on the total, and the sizes it declares are checked too, so a decompression bomb fails
// fast instead of filling memory. The first worksheet's rows with a value are counted while it is
// inflated: past maxRows the inflating stops and the sheet is refused before a single row of it is
// parsed. Answers that count (-1 when there is no sheet1 part), whether it went past, and the parts
// the streaming reader needs, in its order (nothing for a file that is not a ZIP: the legacy .xls).
async function checkZip(buf, budget) {
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) return;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  let declared = 0;
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const csz = buf.readUInt32LE(p + 20);
    const usz = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new Error('bad local header');
    declared += Math.max(usz, buf.readUInt32LE(local + 22));
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start > buf.length || start + csz > buf.length) throw new Error('bad local header');
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({ name, local, method, data: buf.subarray(start, start + csz) });
    p += 46 + nameLen + extraLen + commentLen;
  }
  if (declared > budget) throw new Error('too large when unpacked');
  let actual = 0;
  let rows = -1;
  let over = false;
  for (const entry of entries) {
    const counter = entry.name === 'xl/worksheets/sheet1.xml' ? rowCounter() : null;
    await eachChunk(entry.data, entry.method, (chunk) => {
      actual += chunk.length;
      if (actual > budget) throw new Error('too large when unpacked');
      if (counter && counter.scan(chunk) > maxRows) {
        over = true;
        return false;
      }
    });
    if (counter) rows = counter.count();
    if (over) return { rows, over };
  }
  return { rows, over, parts: inReadingOrder(buf, entries, buf.readUInt32LE(eocd + 16)) };
}

// ExcelJS's streaming reader takes the archive's entries in the order they are stored: a worksheet
// met before the workbook's relations, the workbook or the shared strings is spooled to a temporary
// file or, in some orders, refused. Writers differ (SheetJS stores the shared strings last), so the
// entries it needs are handed over again, each whole (local header, data, data descriptor) and
// without a copy, in the order it reads best, and the first worksheet last: other sheets and parts
// are left out.
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
  return parts;
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

// Rows with a value go out in batches: [sheet row number (1-based), cells by column (A is 0)], each
// cell a trimmed string or null. Past maxRows rows the reading stops: truncated.
function batcher() {
  let batch = [];
  let read = 0;
  return {
    async add(number, cells) {
      if (read >= maxRows) return false;
      read++;
      batch.push([number, cells]);
      if (batch.length >= batchRows) {
        const full = batch;
        batch = [];
        await send(full);
      }
      return true;
    },
    async flush() {
      if (batch.length > 0) await send(batch);
      batch = [];
    },
  };
}

async function readXlsx(ExcelJS, parts) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(parts), {
    sharedStrings: 'cache',
    styles: 'cache', // a date is told apart from a number by its cell style
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const out = batcher();
  let truncated = false;
  sheets: for await (const worksheet of reader) {
    for await (const row of worksheet) {
      const values = row.values || [];
      const cells = [];
      let any = false;
      for (let c = 1; c < values.length && c <= maxColumns; c++) {
        const text = cellText(excelValue(values[c]));
        if (text !== null) any = true;
        cells.push(text);
      }
      if (!any) continue;
      if (!(await out.add(row.number, cells))) {
        truncated = true;
        break sheets;
      }
    }
    break; // the first sheet only
  }
  await out.flush();
  return truncated;
}

// The legacy .xls: SheetJS cannot stream, so the sheet is read whole here (at most maxRows rows
// and a slack for blank rows between them), then handed over in the same batches.
async function readXls(XLSX, data) {
  const wb = XLSX.read(data, {
    type: 'buffer',
    dense: true,
    sheets: 0,
    sheetRows: maxRows + 1000,
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
  if (!sheet || !sheet['!ref']) return false;
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const full = sheet['!fullref'] ? XLSX.utils.decode_range(sheet['!fullref']) : range;
  const truncated = full.e.r > range.e.r;
  if (range.e.c >= maxColumns) range.e.c = maxColumns - 1;
  const raw = XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, defval: null, blankrows: true, range });
  const found = [];
  for (let i = 0; i < raw.length; i++) {
    const values = Array.isArray(raw[i]) ? raw[i] : [];
    const cells = [];
    for (let c = 0; c < range.s.c; c++) cells.push(null);
    let any = false;
    for (const v of values) {
      const text = cellText(v);
      if (text !== null) any = true;
      cells.push(text);
    }
    if (any) found.push([range.s.r + i + 1, cells]);
  }
  // the whole sheet is here already: one too many is known before any row goes out
  if (truncated || found.length > maxRows) return true;
  const out = batcher();
  for (const [number, cells] of found) await out.add(number, cells);
  await out.flush();
  return false;
}

(async () => {
  const data = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const zip = await checkZip(data, maxUnzippedBytes);
  const counted = zip ? zip.rows : -1;
  if (zip && zip.over) return { type: 'end', truncated: true, counted };
  const truncated = zip ? await readXlsx(require(excelPath), zip.parts) : await readXls(require(xlsxPath), data);
  return { type: 'end', truncated, counted };
})().then(
  (answer) => parentPort.postMessage(answer),
  () => parentPort.postMessage({ type: 'error' }),
);
`;
