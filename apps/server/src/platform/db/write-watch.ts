import type { Logger } from 'drizzle-orm/logger';
import type pg from 'pg';
import type { Db } from './db-type';
import { queryObserver } from './query-observer';

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
export function writeWatch() {
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
