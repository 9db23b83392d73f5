import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pgliteAssets } from './pglite-wasm';

/**
 * The embedded database behind a guard. PGlite runs PostgreSQL in this process over one in-memory
 * protocol stream; an error thrown by its JavaScript layer rather than by PostgreSQL (a statement
 * too large to serialize throws RangeError 'Invalid array length') leaves that stream out of step,
 * and every later query silently answers no rows: sessions look absent, logins fail, lists come
 * back empty. So:
 *
 * - calls go through one queue here (PGlite serves one at a time anyway), so nothing queued behind
 *   a failing call reaches the stream before it has been checked;
 * - after any error that does not carry a PostgreSQL SQLSTATE, a probe (`select 1`) must answer
 *   its one row; if it does not, the database is reopened from its data folder (committed data is
 *   on disk; the failed statement was never committed) and the failing call answers
 *   DatabaseUnavailableError (a 503), never a wrong result;
 * - an in-memory database cannot be reopened without losing everything: it stays unavailable, and
 *   /api/health says so.
 */
export class DatabaseUnavailableError extends Error {
  constructor(reason: string) {
    super(`database unavailable: ${reason}`);
  }
}

/** Connection-level failures (the database is down or unreachable), as opposed to a bad statement. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
]);
// node-postgres' own words for a connection that failed, ended, or could not be had in time
const CONNECTION_MESSAGES =
  /pool after calling end|Connection terminated|connection timeout|timeout exceeded when trying to connect|is not queryable|PGlite is closed/i;

/**
 * Is this error (or the driver error drizzle wrapped in it) the database being unavailable? Such a
 * call answers 503 with Retry-After on both engines; a bad statement stays a bug (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (e instanceof DatabaseUnavailableError) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** The subset of PGlite that drizzle's PGlite session and our own code call. */
type Queryable = Pick<PGlite, 'query' | 'exec' | 'transaction'>;

const hasSqlState = (e: unknown) => typeof (e as { code?: unknown })?.code === 'string';

export class GuardedPglite implements Queryable {
  private client!: PGlite;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: string | null = null;
  /** set by close(): what fails while the server shuts down is not repaired (nor reopened) */
  private closing = false;
  /** how many times the database was reopened after a broken stream (read by tests and logs) */
  reopened = 0;

  private constructor(
    private readonly dataDir: string | null,
    private readonly log: (message: string) => void,
  ) {}

  /** `dataDir` null: a throwaway in-memory database. */
  static async open(dataDir: string | null, log: (message: string) => void = console.error): Promise<GuardedPglite> {
    const g = new GuardedPglite(dataDir, log);
    g.client = await g.start();
    return g;
  }

  private async start(): Promise<PGlite> {
    if (this.dataDir) mkdirSync(this.dataDir, { recursive: true });
    const assets = await pgliteAssets();
    const client = this.dataDir ? new PGlite(this.dataDir, assets) : new PGlite(assets);
    await client.waitReady;
    return client;
  }

  /** One call at a time, each checked before the next one reaches the stream. */
  private run<T>(fn: (client: PGlite) => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.guarded(fn));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async guarded<T>(fn: (client: PGlite) => Promise<T>): Promise<T> {
    if (this.broken) throw new DatabaseUnavailableError(this.broken);
    try {
      return await fn(this.client);
    } catch (e) {
      if (this.closing || hasSqlState(e) || (await this.answers())) throw e;
      await this.recover(e);
      throw new DatabaseUnavailableError((e as Error)?.message ?? String(e));
    }
  }

  /** Does the stream still answer a query correctly? */
  private async answers(): Promise<boolean> {
    try {
      const r = await this.client.query<{ ok: number }>('select 1 as ok');
      return r.rows.length === 1 && r.rows[0]?.ok === 1;
    } catch {
      return false;
    }
  }

  private async recover(cause: unknown): Promise<void> {
    const reason = (cause as Error)?.message ?? String(cause);
    if (!this.dataDir) {
      this.broken = reason;
      this.log(`embedded database left unusable by "${reason}"; in-memory data cannot be reopened`);
      return;
    }
    this.log(`embedded database left unusable by "${reason}"; reopening it from ${this.dataDir}`);
    await this.client.close().catch(() => undefined);
    try {
      this.client = await this.start();
      this.reopened++;
    } catch (e) {
      this.broken = `reopen failed: ${(e as Error).message}`;
      this.log(`embedded database could not be reopened: ${(e as Error).message}`);
    }
  }

  query: PGlite['query'] = (query, params, options) => this.run((c) => c.query(query, params, options));
  exec: PGlite['exec'] = (query, options) => this.run((c) => c.exec(query, options));
  transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> => this.run((c) => c.transaction(callback));

  /** A copy of the data folder (backups), taken between calls. */
  dumpDataDir: PGlite['dumpDataDir'] = (compression) => this.run((c) => c.dumpDataDir(compression));

  /** Liveness for /api/health: a broken or closed database does not answer. */
  async ping(): Promise<void> {
    const ok = await this.run((c) => c.query<{ ok: number }>('select 1 as ok'));
    if (ok.rows[0]?.ok !== 1) throw new DatabaseUnavailableError('no answer');
  }

  close(): Promise<void> {
    this.closing = true;
    return this.run((c) => c.close());
  }
}
