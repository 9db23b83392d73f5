import { IMPORT_MAX_ROWS, MSG, toFieldErrors } from '@trainlab/contract';
import type { z } from 'zod';
import { AppError, ValidationError } from '../errors';
import { parseSheet, UnreadableFileError } from './parse';

export interface RowError {
  /** spreadsheet row number; the header is row 1 */
  row: number;
  attribute: string;
  errors: string[];
}

export interface ImportedRow<T> {
  row: number;
  data: T;
}

export interface ImportOptions<S extends z.ZodType> {
  file: Buffer | null | undefined;
  filename: string | null | undefined;
  /** zod schema of one row (an object keyed by column name) */
  schema: S;
  /** expected header names; every one must be present (case, spaces and dashes ignored) */
  columns: readonly string[];
  maxRows?: number;
  /** parse time limit */
  timeoutMs?: number;
}

/** At most this many row errors are answered; the import is refused either way. */
export const MAX_ROW_ERRORS = 200;

const fileError = (message: string) => new ValidationError({ file: [message] });

/** The 422 of an import with invalid rows: `{errors:[{row, attribute, errors}]}` (nothing is imported). */
export class ImportRowsError extends AppError {
  constructor(readonly errors: RowError[]) {
    super(422, MSG.givenDataInvalid, { errors: errors.slice(0, MAX_ROW_ERRORS) });
  }
}

const XLSX_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const XLS_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** .xls or .xlsx by name AND an OLE2 or ZIP signature by content. */
export function isSpreadsheet(file: Buffer, filename: string): boolean {
  if (!/\.(xlsx|xls)$/i.test(filename.trim())) return false;
  const starts = (sig: Buffer) => file.length >= sig.length && file.subarray(0, sig.length).equals(sig);
  return starts(XLSX_SIGNATURE) || starts(XLS_SIGNATURE);
}

export const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * The Excel import pipeline: checks the file (present, .xls/.xlsx by name and signature), parses
 * its first sheet in a worker thread with time and memory limits, maps the header row to the
 * expected columns and validates every data row with `schema`. Either every row is valid and the
 * validated rows come back (with their spreadsheet row numbers), or it throws a 422:
 * `{file:[...]}` for the file as a whole, `{errors:[{row, attribute, errors}]}` for invalid rows.
 * The caller then writes all rows in one transaction (all or nothing).
 */
export async function importRows<S extends z.ZodType>(opts: ImportOptions<S>): Promise<ImportedRow<z.output<S>>[]> {
  const maxRows = opts.maxRows ?? IMPORT_MAX_ROWS;
  const { file } = opts;
  if (!file || file.length === 0) throw fileError(MSG.fileRequired);
  if (!isSpreadsheet(file, opts.filename ?? '')) throw fileError(MSG.fileType);

  let sheet: Awaited<ReturnType<typeof parseSheet>>;
  try {
    // Some slack for blank rows between data rows; a sheet longer than that is refused below.
    // the parse's time limit grows with a raised row limit (10 s covers the default 10,000 rows)
    sheet = await parseSheet(file, {
      sheetRows: maxRows + 1 + 1000,
      timeoutMs: opts.timeoutMs ?? Math.max(10_000, maxRows),
    });
  } catch (e) {
    if (e instanceof UnreadableFileError) throw fileError(MSG.fileUnreadable);
    throw e;
  }
  const tooMany = () => fileError(`The file must not have more than ${maxRows} rows.`);
  if (sheet.truncated) throw tooMany();

  const [header = [], ...body] = sheet.rows;
  const dataRows = body
    .map((cells, i) => ({ row: sheet.startRow + i + 2, cells }))
    .filter(({ cells }) => cells.some((c) => c !== null && c !== ''));
  if (dataRows.length === 0) throw fileError(MSG.fileNoRows);
  if (dataRows.length > maxRows) throw tooMany();

  const position = new Map<string, number>();
  header.forEach((h, i) => {
    if (h !== null && !position.has(headerKey(h))) position.set(headerKey(h), i);
  });
  const missing = opts.columns.filter((c) => !position.has(headerKey(c)));
  if (missing.length > 0) throw fileError(`The file is missing the columns: ${missing.join(', ')}.`);

  const valid: ImportedRow<z.output<S>>[] = [];
  const errors: RowError[] = [];
  for (const { row, cells } of dataRows) {
    // Only the expected columns are read, into a plain object with no prototype surprises.
    const record: Record<string, string | undefined> = {};
    for (const column of opts.columns) {
      const value = cells[position.get(headerKey(column))!];
      record[column] = value === null || value === undefined || value === '' ? undefined : value;
    }
    const parsed = opts.schema.safeParse(record);
    if (parsed.success) {
      valid.push({ row, data: parsed.data });
      continue;
    }
    for (const [attribute, messages] of Object.entries(toFieldErrors(parsed.error.issues, record))) {
      errors.push({ row, attribute, errors: messages });
    }
    if (errors.length >= MAX_ROW_ERRORS) break;
  }
  if (errors.length > 0) throw new ImportRowsError(errors);
  return valid;
}
