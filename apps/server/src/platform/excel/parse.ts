import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PARSE_WORKER_SOURCE } from './worker-source';

const require = createRequire(import.meta.url);

/** One row of the sheet that holds a value. */
export interface SheetRow {
  /** the sheet's row number (1-based) */
  row: number;
  /** cells by column (column A is 0), each a trimmed string or null */
  cells: (string | null)[];
}

export interface ReadOptions {
  /** Rows with a value read at most (header included); one more sets `truncated`. */
  maxRows: number;
  /** Rows with a value per batch. */
  batchRows?: number;
  maxColumns?: number;
  /**
   * Time the reader may keep its caller waiting for rows, in total (the time the caller spends on
   * a batch, writing it, is not counted). Past it the worker is terminated.
   */
  timeoutMs?: number;
  /** Heap of the worker in MB. */
  maxHeapMb?: number;
  /** Total size of an .xlsx's unpacked parts. */
  maxUnzippedBytes?: number;
}

/** Thrown when the file cannot be parsed: corrupt, hostile, too slow or too big for the worker. */
export class UnreadableFileError extends Error {}

/** At most this many files are read at once; further imports wait their turn. */
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

type WorkerMessage =
  | { type: 'rows'; rows: [number, (string | null)[]][] }
  | { type: 'end'; truncated: boolean; counted: number }
  | { type: 'error' };

/**
 * Reads the first sheet of an .xls/.xlsx file (ExcelJS's streaming reader for .xlsx, SheetJS for
 * the legacy .xls) off the request thread, a batch of rows at a time: a worker with its own heap
 * limit reads ahead at most two batches, so memory stays flat however long the sheet is, and a
 * time limit on the waiting terminates a parse that stalls. Any failure is an UnreadableFileError.
 * A reader holds one of the MAX_PARALLEL places until it is closed: always close it (`finally`).
 */
export class SheetReader {
  /** Past maxRows rows: the sheet has more rows than were read (the worker has stopped). */
  truncated = false;
  /**
   * Rows with a value of the first worksheet, counted on its raw XML before any was parsed (-1: not
   * an .xlsx with a sheet1 part). The count stops one past maxRows: then nothing is parsed at all.
   */
  counted = -1;
  private readonly queue: SheetRow[][] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private waitedMs = 0;
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly timeoutMs: number,
  ) {
    // whatever the parser prints is dropped
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('message', (msg: WorkerMessage) => {
      if (msg?.type === 'rows' && Array.isArray(msg.rows)) {
        this.queue.push(msg.rows.map(([row, cells]) => ({ row: Number(row), cells })));
      } else if (msg?.type === 'end') {
        this.truncated = Boolean(msg.truncated);
        this.counted = Number.isInteger(msg.counted) ? Number(msg.counted) : -1;
        this.ended = true;
        this.stop();
      } else this.fail('unreadable');
      this.notify();
    });
    worker.once('error', (err) => this.fail(err.message));
    worker.once('exit', (code) => {
      if (!this.ended) this.fail(`worker exited (${code})`);
    });
  }

  static async open(file: Buffer, opts: ReadOptions): Promise<SheetReader> {
    xlsxPath ??= require.resolve('xlsx');
    excelPath ??= require.resolve('exceljs');
    await acquire();
    try {
      const worker = new Worker(PARSE_WORKER_SOURCE, {
        eval: true,
        workerData: {
          file,
          xlsxPath,
          excelPath,
          maxRows: opts.maxRows,
          batchRows: opts.batchRows ?? 500,
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
      return new SheetReader(worker, opts.timeoutMs ?? 10_000);
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Batches read by the worker and not yet taken: never more than two. */
  get buffered(): number {
    return this.queue.length;
  }

  /** The next batch of rows, or null at the end of the sheet (or past maxRows: see `truncated`). */
  async next(): Promise<SheetRow[] | null> {
    for (;;) {
      const batch = this.queue.shift();
      if (batch) {
        if (!this.ended && !this.closed) this.worker.postMessage('more');
        return batch;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return null;
      await this.waitForWorker();
    }
  }

  /** Ends the worker and frees the place; idempotent. */
  close(): void {
    this.stop();
    this.queue.length = 0;
  }

  private async waitForWorker(): Promise<void> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      timer = setTimeout(() => this.fail('timed out'), Math.max(0, this.timeoutMs - this.waitedMs));
    });
    clearTimeout(timer);
    this.waitedMs += Date.now() - started;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private fail(reason: string): void {
    if (!this.ended && !this.failure) this.failure = new UnreadableFileError(reason);
    this.stop();
    this.notify();
  }

  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    void this.worker.terminate();
    release();
  }
}

export interface ParsedSheet {
  /** 0-based index of the sheet's first used row (the header row). */
  startRow: number;
  /** Every row from the header down, blank rows included (as []), each cell a trimmed string or null. */
  rows: (string | null)[][];
  /** The sheet has more rows than were read. */
  truncated: boolean;
  /** See SheetReader.counted. */
  counted: number;
}

/**
 * The whole first sheet in memory, from its first used row and column (small files and tests;
 * imports read batch by batch through SheetReader).
 */
export async function parseSheet(file: Buffer, opts: ReadOptions): Promise<ParsedSheet> {
  const reader = await SheetReader.open(file, opts);
  const found: SheetRow[] = [];
  try {
    for (let batch = await reader.next(); batch; batch = await reader.next()) found.push(...batch);
  } finally {
    reader.close();
  }
  if (found.length === 0) return { startRow: 0, rows: [], truncated: reader.truncated, counted: reader.counted };
  const start = found[0]!.row;
  const from = found.reduce(
    (m, r) =>
      Math.min(
        m,
        r.cells.findIndex((c) => c !== null),
      ),
    Infinity,
  );
  const width = found.reduce((m, r) => Math.max(m, r.cells.length), 0) - from;
  const rows: (string | null)[][] = [];
  for (const { row, cells } of found) {
    while (start + rows.length < row) rows.push([]);
    rows.push(Array.from({ length: width }, (_, c) => cells[from + c] ?? null));
  }
  return { startRow: start - 1, rows, truncated: reader.truncated, counted: reader.counted };
}
