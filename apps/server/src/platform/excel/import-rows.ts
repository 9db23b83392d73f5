import { IMPORT_MAX_ROWS, MSG, nulCharacterErrors, toFieldErrors } from '@trainlab/contract';
import type { z } from 'zod';
import { AppError, ValidationError } from '../errors';
import { SheetReader, type SheetRow, UnreadableFileError } from './parse';

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
  /** time the reader may keep the import waiting for rows, in total */
  timeoutMs?: number;
  /** rows per batch (500 by default, one INSERT_CHUNK) */
  batchRows?: number;
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
 * The rows of an import as they are read, a batch at a time: each batch holds the rows the schema
 * accepted, with their spreadsheet row numbers. The caller checks a batch against the database,
 * names the rows it refuses with `reject`, and writes it unless the import has `failed` (the
 * transaction around the whole loop is rolled back anyway). Reading goes on to the end of the file
 * after a refusal so that every refused row is named, as when the whole file was read first: at the
 * end of the loop the iteration throws a 422 ImportRowsError with the schema's errors if any row
 * broke the schema (the caller's checks come second, as they always have), otherwise with the
 * rejected rows, in row order; the first MAX_ROW_ERRORS of them.
 */
export interface ImportSource<T> extends AsyncIterable<ImportedRow<T>[]> {
  /** Refuses a row of the current batch (the import writes nothing). */
  reject(row: number, attribute: string, message: string): void;
  /** A row has been refused: by the schema or by the caller. */
  readonly failed: boolean;
  /** Data rows read so far: every row of the file once the loop has ended without an error. */
  readonly count: number;
}

const tooMany = (maxRows: number) => fileError(`The file must not have more than ${maxRows} rows.`);
const unreadable = (e: unknown) => (e instanceof UnreadableFileError ? fileError(MSG.fileUnreadable) : e);

/**
 * The Excel import pipeline: checks the file (present, .xls/.xlsx by name and signature), starts
 * reading its first sheet in a worker thread with time and memory limits (a sheet over the row
 * limit is refused from its raw row count, before a row is parsed), maps the header row to the
 * expected columns, and hands `write` the data rows batch by batch (see ImportSource), validated
 * with `schema`. File-level errors are thrown before `write` runs: `{file:[...]}`; invalid rows are
 * thrown by the loop in `write`: `{errors:[{row, attribute, errors}]}`. `write` runs its loop inside
 * one transaction, so a file is written whole or not at all while only a batch is held in memory.
 */
export async function streamImport<S extends z.ZodType, R>(
  opts: ImportOptions<S>,
  write: (rows: ImportSource<z.output<S>>) => Promise<R>,
): Promise<R> {
  const maxRows = opts.maxRows ?? IMPORT_MAX_ROWS;
  const { file } = opts;
  if (!file || file.length === 0) throw fileError(MSG.fileRequired);
  if (!isSpreadsheet(file, opts.filename ?? '')) throw fileError(MSG.fileType);

  let reader: SheetReader;
  try {
    reader = await SheetReader.open(file, {
      maxRows: maxRows + 1, // and the header
      batchRows: opts.batchRows,
      // the time limit grows with a raised row limit: 30 s, or 3 ms a row above 10,000 rows (a loaded
      // two-core machine took over 10 s of waiting for a valid file of 10,000 rows)
      timeoutMs: opts.timeoutMs ?? Math.max(30_000, maxRows * 3),
    });
  } catch (e) {
    throw unreadable(e);
  }
  try {
    const read = async () => {
      try {
        const batch = await reader.next();
        if (batch === null && reader.truncated) throw tooMany(maxRows);
        return batch;
      } catch (e) {
        throw unreadable(e);
      }
    };
    const first = await read();
    if (!first) throw fileError(MSG.fileNoRows);
    const header = first[0]!.cells;
    let pending: SheetRow[] | null = first.slice(1);
    while (pending && pending.length === 0) pending = await read();
    if (!pending) throw fileError(MSG.fileNoRows);

    const position = new Map<string, number>();
    header.forEach((h, i) => {
      if (h !== null && !position.has(headerKey(h))) position.set(headerKey(h), i);
    });
    const missing = opts.columns.filter((c) => !position.has(headerKey(c)));
    if (missing.length > 0) throw fileError(`The file is missing the columns: ${missing.join(', ')}.`);

    const schemaErrors: RowError[] = [];
    const rejected: RowError[] = [];
    let batchRejects: RowError[] = [];
    let count = 0;
    // the caller's refusals of a batch, in row order (batches come in row order)
    const settleRejects = () => {
      batchRejects.sort((a, b) => a.row - b.row);
      rejected.push(...batchRejects.slice(0, MAX_ROW_ERRORS - rejected.length));
      batchRejects = [];
    };
    const source: ImportSource<z.output<S>> = {
      reject(row, attribute, message) {
        batchRejects.push({ row, attribute, errors: [message] });
      },
      get failed() {
        return schemaErrors.length > 0 || rejected.length > 0 || batchRejects.length > 0;
      },
      get count() {
        return count;
      },
      async *[Symbol.asyncIterator]() {
        let batch = pending;
        pending = null;
        while (batch) {
          settleRejects();
          const valid: ImportedRow<z.output<S>>[] = [];
          for (const { row, cells } of batch) {
            count++;
            if (count > maxRows) throw tooMany(maxRows);
            if (schemaErrors.length >= MAX_ROW_ERRORS) continue; // refused anyway: read on for the count only
            // Only the expected columns are read, into a plain object with no prototype surprises.
            const record: Record<string, string | undefined> = {};
            for (const column of opts.columns) {
              const value = cells[position.get(headerKey(column))!];
              record[column] = value === null || value === undefined || value === '' ? undefined : value;
            }
            const nul = nulCharacterErrors(record);
            if (nul) {
              for (const [attribute, errors] of Object.entries(nul)) schemaErrors.push({ row, attribute, errors });
              continue;
            }
            const parsed = opts.schema.safeParse(record);
            if (parsed.success) {
              valid.push({ row, data: parsed.data });
              continue;
            }
            for (const [attribute, messages] of Object.entries(toFieldErrors(parsed.error.issues, record))) {
              schemaErrors.push({ row, attribute, errors: messages });
            }
          }
          // once a row broke the schema the caller's checks no longer matter (its errors come first)
          if (schemaErrors.length === 0 && rejected.length < MAX_ROW_ERRORS && valid.length > 0) yield valid;
          batch = await read();
        }
        settleRejects();
        if (schemaErrors.length > 0) throw new ImportRowsError(schemaErrors);
        if (rejected.length > 0) throw new ImportRowsError(rejected);
      },
    };
    return await write(source);
  } finally {
    reader.close();
  }
}

/**
 * Every validated row of a file at once (small files and tests). Imports go through streamImport,
 * which holds a batch at a time.
 */
export async function importRows<S extends z.ZodType>(opts: ImportOptions<S>): Promise<ImportedRow<z.output<S>>[]> {
  return streamImport(opts, async (rows) => {
    const all: ImportedRow<z.output<S>>[] = [];
    for await (const batch of rows) all.push(...batch);
    return all;
  });
}
