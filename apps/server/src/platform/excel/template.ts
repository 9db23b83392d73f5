import { createRequire } from 'node:module';
import type * as XLSXTypes from 'xlsx';

const require = createRequire(import.meta.url);
let xlsx: typeof XLSXTypes | undefined;

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An .xlsx with the header row and one sample row: the template of an import. */
export function templateFor(columns: readonly string[], sampleRow: Readonly<Record<string, unknown>> = {}): Buffer {
  xlsx ??= require('xlsx') as typeof XLSXTypes;
  const sample = columns.map((c) => {
    const v = sampleRow[c];
    return v === undefined || v === null ? '' : (v as string | number | boolean);
  });
  const sheet = xlsx.utils.aoa_to_sheet([[...columns], sample]);
  const book = xlsx.utils.book_new();
  xlsx.utils.book_append_sheet(book, sheet, 'Sheet1');
  return xlsx.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
