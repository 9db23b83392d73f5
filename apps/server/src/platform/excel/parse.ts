import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PARSE_WORKER_SOURCE } from './worker-source';

const require = createRequire(import.meta.url);

export interface ParsedSheet {
  /** 0-based index of the sheet's first used row (the header row). */
  startRow: number;
  /** Every row from the header down, blank rows included (as []), each cell a trimmed string or null. */
  rows: (string | null)[][];
  /** The sheet has more rows than were read. */
  truncated: boolean;
  /**
   * Rows of the first worksheet counted on its raw XML before any was parsed (-1: not an .xlsx
   * with a sheet1 part). Over `sheetRows`, nothing is parsed at all: `rows` is empty.
   */
  counted: number;
}

export interface ParseOptions {
  /** Rows read at most (header included); more rows set `truncated`. */
  sheetRows: number;
  maxColumns?: number;
  timeoutMs?: number;
  /** Heap of the worker in MB. */
  maxHeapMb?: number;
  /** Total size of an .xlsx's unpacked parts. */
  maxUnzippedBytes?: number;
}

/** Thrown when the file cannot be parsed: corrupt, hostile, too slow or too big for the worker. */
export class UnreadableFileError extends Error {}

/** At most this many files are parsed at once; further imports wait their turn. */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function acquire(): Promise<void> {
  if (running < MAX_PARALLEL) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

let xlsxPath: string | undefined;
let excelPath: string | undefined;

/**
 * Parses the first sheet of an .xls/.xlsx file (ExcelJS's streaming reader for .xlsx, SheetJS for
 * the legacy .xls) off the request thread: a worker with its own heap
 * limit and a time limit; on timeout the worker is terminated. Any failure is an UnreadableFileError.
 */
export async function parseSheet(file: Buffer, opts: ParseOptions): Promise<ParsedSheet> {
  xlsxPath ??= require.resolve('xlsx');
  excelPath ??= require.resolve('exceljs');
  await acquire();
  try {
    return await new Promise<ParsedSheet>((resolve, reject) => {
      const worker = new Worker(PARSE_WORKER_SOURCE, {
        eval: true,
        workerData: {
          file,
          xlsxPath,
          excelPath,
          sheetRows: opts.sheetRows,
          maxColumns: opts.maxColumns ?? 256,
          maxUnzippedBytes: opts.maxUnzippedBytes ?? 100 * 1024 * 1024,
        },
        resourceLimits: {
          maxOldGenerationSizeMb: opts.maxHeapMb ?? 512,
          maxYoungGenerationSizeMb: 64,
          stackSizeMb: 4,
        },
        stdout: true,
        stderr: true,
      });
      // whatever the parser prints is dropped
      worker.stdout.resume();
      worker.stderr.resume();
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        fn();
      };
      const timer = setTimeout(
        () => finish(() => reject(new UnreadableFileError('timed out'))),
        opts.timeoutMs ?? 10_000,
      );
      worker.once('message', (msg: { ok: boolean } & Partial<ParsedSheet>) => {
        finish(() => {
          if (!msg?.ok || !Array.isArray(msg.rows)) return reject(new UnreadableFileError('unreadable'));
          resolve({
            startRow: Number(msg.startRow) || 0,
            rows: msg.rows,
            truncated: Boolean(msg.truncated),
            counted: Number.isInteger(msg.counted) ? Number(msg.counted) : -1,
          });
        });
      });
      worker.once('error', (err) => finish(() => reject(new UnreadableFileError(err.message))));
      worker.once('exit', (code) => finish(() => reject(new UnreadableFileError(`worker exited (${code})`))));
    });
  } finally {
    release();
  }
}
