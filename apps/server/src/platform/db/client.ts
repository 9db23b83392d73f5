import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from '../../db/schema';
import { ambientDb, runInAmbientTransaction } from './ambient-transaction';
import { watchConnectionErrors } from './connection-errors';
import type { Db } from './db-type';
import { GuardedPglite } from './guarded-pglite';
import { chooseWasmTier } from './pglite-wasm';
import { STARTUP_LOCK_KEY, serialQueue, withAdvisoryLock } from './startup-lock';
import { nameStatements } from './statement-names';
import { pgliteTransactions, poolTransactions } from './transaction-engines';
import { type TablesWritten, writeWatch } from './write-watch';

export type { Db, Schema } from './db-type';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations; safe when several processes start at once (see exclusive). */
  migrate(): Promise<void>;
  /**
   * Runs fn while holding the database's start-up lock, so that of several server instances starting
   * together on one database only one at a time migrates or seeds: a PostgreSQL advisory lock on
   * PostgreSQL (held by one pooled connection, released when fn ends or that connection dies), an
   * in-process queue on PGlite (one process owns its data folder). Not re-entrant.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn with every statement sent through `db` on one transaction (platform/db/ambient-transaction.ts):
   * begun by fn's first write, committed when fn resolves, rolled back when it throws.
   */
  inTransaction<T>(fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a consistent gzipped tarball of the data folder, taken between queries (backups) */
  dumpDataDir?: () => Promise<Blob>;
  /** PostgreSQL only: the connection pool's connections (metrics) */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * Calls listener when this process changes accounts or sessions: on each statement that may
   * update or delete rows of `users` or `sessions`, and again when a transaction that sent one
   * ends (its change is visible to other connections only then). Answers the unsubscribe function.
   */
  onAccountWrite(listener: () => void): () => void;
  /**
   * Calls listener with the tables each writing statement of this process names (plain INSERTs
   * included), and again with them when the transaction that sent it ends. Answers the unsubscribe.
   */
  onTableWrite(listener: (tables: TablesWritten) => void): () => void;
}

function migrationsFolder(): string {
  // Works from src/ (tsx, vitest) and from the bundled dist/main.js alike.
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../../drizzle'), path.resolve(here, '../drizzle')];
  return process.env.MIGRATIONS_DIR ?? candidates.find((c) => existsSync(path.join(c, 'meta'))) ?? candidates[0]!;
}

/** `url` is a postgres:// URL, `memory://` for a throwaway PGlite, or a folder for a durable PGlite. */
export async function openDatabase(
  url: string,
  opts: { pgliteWasmTierUp?: boolean; preparedStatements?: boolean } = {},
): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    // a database that does not answer a connection (a failover, a host gone) fails the call within
    // 10 s (a 503) rather than holding the request and a pool slot until the client gives up
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
    watchConnectionErrors(pool);
    if (opts.preparedStatements ?? true) nameStatements(pool);
    const watch = writeWatch();
    watch.wrapPool(pool);
    const base = drizzlePg(pool, { schema, logger: watch.logger }) as unknown as Db;
    watch.wrapTransactions(base);
    const db = ambientDb(base);
    const transactions = poolTransactions(pool, base);
    const exclusive = <T>(fn: () => Promise<T>) => withAdvisoryLock(pool, STARTUP_LOCK_KEY, fn);
    return {
      db,
      kind: 'postgres',
      inTransaction: (fn) => watch.around(() => runInAmbientTransaction(transactions, fn)),
      // drizzle reads the applied migrations, then applies the rest in one transaction: two processes
      // doing that at once both see "nothing applied" and the second fails (or runs them twice)
      migrate: () => exclusive(() => migratePg(base as never, { migrationsFolder: migrationsFolder() })),
      exclusive,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      onAccountWrite: watch.onAccountWrite,
      onTableWrite: watch.onTableWrite,
    };
  }
  chooseWasmTier(opts.pgliteWasmTierUp ?? false);
  const client = await GuardedPglite.open(url === 'memory://' ? null : url);
  const watch = writeWatch();
  const base = drizzlePglite(client as unknown as PGlite, { schema, logger: watch.logger }) as unknown as Db;
  watch.wrapTransactions(base);
  const db = ambientDb(base);
  const transactions = pgliteTransactions(client, base);
  const exclusive = serialQueue();
  return {
    db,
    kind: 'pglite',
    inTransaction: (fn) => watch.around(() => runInAmbientTransaction(transactions, fn)),
    migrate: () => exclusive(() => migratePglite(base as never, { migrationsFolder: migrationsFolder() })),
    exclusive,
    ping: () => client.ping(),
    close: () => client.close(),
    dumpDataDir: async () => {
      // committed rows may sit in WAL buffers only: write them out so the copied files hold them
      await client.exec('checkpoint');
      return client.dumpDataDir('gzip');
    },
    onAccountWrite: watch.onAccountWrite,
    onTableWrite: watch.onTableWrite,
  };
}
