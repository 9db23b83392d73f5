import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite, PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from '../../db/schema';
import {
  ambientDb,
  type LazyTransactionClient,
  type OpenTransaction,
  runInAmbientTransaction,
  type TransactionEngine,
} from './ambient-transaction';
import type { Db } from './db-type';
import { GuardedPglite } from './guarded-pglite';
import { chooseWasmTier } from './pglite-wasm';
import { queryObserver } from './query-observer';
import { nameStatements } from './statement-names';

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

/** Key of the start-up advisory lock (any fixed bigint; advisory locks are per database). */
export const STARTUP_LOCK_KEY = 7_301_202_601;

/**
 * A connection the server ends (a restart, a failover, an administrator's kill) emits 'error' on its
 * client; with no listener that error ends the process. The pool listens on idle clients only, so
 * every client gets its own listener from the moment it connects, and keeps it while checked out (a
 * transaction, the start-up lock, a job's claim). The query in hand fails with the same error (a
 * 503), and the pool drops the client when it is released.
 */
function watchConnectionErrors(pool: pg.Pool): void {
  let lastWarning = 0;
  const warn = (err: Error) => {
    // one line per second at most: a restart ends every connection at once
    if (Date.now() - lastWarning < 1000) return;
    lastWarning = Date.now();
    console.warn(`database connection lost: ${err.message}`);
  };
  pool.on('error', warn);
  pool.on('connect', (client) => {
    client.on('error', warn);
  });
}

/** Runs fn under the PostgreSQL session-level advisory lock `key`, taken on a connection of its own. */
async function withAdvisoryLock<T>(pool: pg.Pool, key: number, fn: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key]);
  } catch (e) {
    client.release(e as Error);
    throw e;
  }
  try {
    return await fn();
  } finally {
    try {
      await client.query('select pg_advisory_unlock($1)', [key]);
      client.release();
    } catch (e) {
      // the lock lives as long as the session: a connection that could not unlock is closed, not reused
      client.release(e as Error);
    }
  }
}

/** One at a time inside this process (PGlite: a single process owns the database). */
function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** A statement that may change or remove existing rows (a plain INSERT adds, an upsert may change). */
const CHANGES_ROWS =
  /^\s*(?:update\b|delete\b|merge\b|truncate\b|insert\b[\s\S]*\bon\s+conflict\b|with\b[\s\S]*\b(?:update|delete)\b)/i;
/** Any statement that writes rows, plain INSERTs included (a new row enters a list). */
const WRITES_ROWS = /^\s*(?:insert\b|update\b|delete\b|merge\b|truncate\b|with\b[\s\S]*\b(?:insert|update|delete)\b)/i;
const ACCOUNT_TABLES = /(?<![\w.])"?(?:users|sessions)"?(?![\w])/i;
/** Every table a statement names after into, update, from, join, using or truncate (quoted or not). */
const NAMED_TABLE =
  /\b(?:into|update|from|join|using|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

const changesAccounts = (query: string) => CHANGES_ROWS.test(query) && ACCOUNT_TABLES.test(query);

/** The tables a writing statement names (over-inclusive: a table it only reads is named too). */
export function tablesWritten(query: string): Set<string> | null {
  if (!WRITES_ROWS.test(query)) return null;
  const tables = new Set<string>();
  for (const m of query.matchAll(NAMED_TABLE)) tables.add(m[1]!.toLowerCase());
  return tables;
}

/**
 * What a listener of table writes hears: the tables a statement or an ended transaction wrote, or
 * 'all' when they cannot be told apart (a transaction that outlived the memory of recent writes).
 */
export type TablesWritten = ReadonlySet<string> | 'all';

/** how many recent writes a transaction's end can name again (more: it reports 'all') */
const RECENT_WRITES = 512;

/**
 * Watches the statements drizzle sends on one database for writes: account and session changes
 * (the session cache), and the tables every write names (the answer cache, decision 0050).
 */
function writeWatch() {
  const accountListeners = new Set<() => void>();
  const tableListeners = new Set<(tables: TablesWritten) => void>();
  let seen = 0;
  let accountsSeen = 0;
  const recent: Set<string>[] = [];
  const notifyAccounts = () => {
    for (const l of accountListeners) l();
  };
  const notifyTables = (tables: TablesWritten) => {
    for (const l of tableListeners) l(tables);
  };
  const observe = (query: string) => {
    const tables = tablesWritten(query);
    if (!tables) return;
    seen++;
    recent.push(tables);
    if (recent.length > RECENT_WRITES) recent.shift();
    notifyTables(tables);
    if (changesAccounts(query)) {
      accountsSeen++;
      notifyAccounts();
    }
  };
  /** The tables written since `before` (a value of seen), told again once their transaction ended. */
  const since = (before: number): TablesWritten => {
    const count = seen - before;
    if (count > recent.length) return 'all';
    const tables = new Set<string>();
    for (const set of recent.slice(recent.length - count)) for (const t of set) tables.add(t);
    return tables;
  };
  /** Wraps fn: what it (or anything meanwhile) wrote is told again once it has ended. */
  const around = async <T>(fn: () => Promise<T>): Promise<T> => {
    const before = seen;
    const accountsBefore = accountsSeen;
    try {
      return await fn();
    } finally {
      if (seen !== before) notifyTables(since(before));
      if (accountsSeen !== accountsBefore) notifyAccounts();
    }
  };
  const logger: Logger = {
    logQuery(query, params) {
      queryObserver.logQuery(query, params);
      observe(query);
    },
  };
  /** Wraps db.transaction: a transaction that wrote is told again once it has ended. */
  const wrapTransactions = (db: Db) => {
    const transaction = db.transaction.bind(db);
    (db as { transaction: unknown }).transaction = (...args: Parameters<Db['transaction']>) =>
      around(() => transaction(...args));
  };
  /**
   * Wraps pool.query (statements outside a transaction): tells again once such a statement has
   * run, since a read that started between the first notice and the commit saw the old row.
   * (PGlite runs one statement at a time, so a later read always sees the change.)
   */
  const wrapPool = (pool: pg.Pool) => {
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      const tables = text ? tablesWritten(text) : null;
      if (tables && result instanceof Promise) {
        const again = () => {
          notifyTables(tables);
          if (changesAccounts(text!)) notifyAccounts();
        };
        result.then(again, again);
      }
      return result;
    };
  };
  const subscribe =
    <L>(set: Set<L>) =>
    (listener: L) => {
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    };
  return {
    logger,
    wrapTransactions,
    wrapPool,
    around,
    onAccountWrite: subscribe(accountListeners),
    onTableWrite: subscribe(tableListeners),
  };
}

/** The parts of a drizzle database a transaction object of the same schema is built from. */
interface DrizzleInternals {
  dialect: ConstructorParameters<typeof NodePgTransaction>[0];
  session: { options: ConstructorParameters<typeof NodePgSession>[3] };
  _: { schema: unknown; fullSchema: unknown; tableNamesMap: unknown };
}
const internalsOf = (db: Db) => {
  const d = db as unknown as DrizzleInternals;
  const schemaConfig = { schema: d._.schema, fullSchema: d._.fullSchema, tableNamesMap: d._.tableNamesMap } as never;
  return { dialect: d.dialect, options: d.session.options, schemaConfig };
};

/** The ambient transactions of a PostgreSQL pool: a pooled connection from the first write to the end. */
function poolTransactions(pool: pg.Pool, db: Db): TransactionEngine {
  const { dialect, options, schemaConfig } = internalsOf(db);
  const send = (target: pg.Pool | pg.PoolClient, args: unknown[]) =>
    (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
  return {
    outside: (args) => send(pool, args),
    begin: async (): Promise<OpenTransaction> => {
      const client = await pool.connect();
      try {
        await client.query('begin');
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
      return {
        query: (args) => send(client, args),
        end: async (commit) => {
          try {
            await client.query(commit ? 'commit' : 'rollback');
            client.release();
          } catch (e) {
            // a connection that could not end its transaction is closed, never reused
            client.release(e as Error);
            if (commit) throw e;
          }
        },
      };
    },
    transactionOver: (client: LazyTransactionClient) =>
      new NodePgTransaction(
        dialect,
        new NodePgSession(client as never, dialect, schemaConfig, options),
        schemaConfig,
      ) as unknown as Db,
  };
}

/** The ambient transactions of the embedded database: PGlite's own transaction, held until the end. */
function pgliteTransactions(client: GuardedPglite, db: Db): TransactionEngine {
  const { dialect, options, schemaConfig } = internalsOf(db);
  type Query = (...a: unknown[]) => Promise<unknown>;
  return {
    outside: (args) => (client.query as Query)(...args),
    begin: () =>
      new Promise<OpenTransaction>((opened, failed) => {
        let settle!: { commit: () => void; rollback: (reason: unknown) => void };
        const finished = new Promise<void>((commit, rollback) => {
          settle = { commit, rollback };
        });
        const done = client.transaction(async (tx) => {
          opened({
            query: (args) => (tx.query as Query)(...args),
            end: async (commit, reason) => {
              if (commit) settle.commit();
              else settle.rollback(reason ?? new Error('rolled back'));
              try {
                await done;
              } catch (e) {
                if (commit) throw e;
              }
            },
          });
          await finished;
        });
        // a transaction that could not begin fails the statement that wanted it
        done.catch(failed);
      }),
    transactionOver: (lazy: LazyTransactionClient) =>
      new PgliteTransaction(
        dialect as never,
        new PgliteSession(lazy as never, dialect as never, schemaConfig, options as never),
        schemaConfig,
      ) as unknown as Db,
  };
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
