import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './db-type';

/**
 * An ambient transaction: while a call runs inside `run`, every statement sent through the
 * database's `db` (whoever holds it: a handler's deps.db, the outbox mailer, a job's enqueue) goes to
 * one transaction of that call, so a change and the rows that record it (its audit row) are committed
 * together or not at all, without passing a transaction down through every function.
 *
 * The transaction begins with the call's first statement that is not a plain read: the reads that
 * check a request and the slow work before its first write (an upload streamed to disk, ffprobe)
 * hold nothing. On PGlite a transaction holds the whole database (one connection), so whatever the
 * call does after its first write delays every other call; work with an outside effect that cannot
 * be rolled back (SMTP, deleting stored files) is queued with `afterCommit` and done once committed.
 *
 * A `db.transaction(fn)` inside becomes a savepoint of the ambient transaction (a failure inside it
 * rolls back to the savepoint, as before). A statement that fails inside the ambient transaction
 * (outside such a savepoint) fails the call: PostgreSQL refuses anything more on that transaction.
 */

/** A transaction's connection as the engine gives it: statements, then commit or rollback. */
export interface OpenTransaction {
  query(args: unknown[]): Promise<unknown>;
  /** commit (true) or roll back; a failed commit throws (nothing was committed) */
  end(commit: boolean, reason?: unknown): Promise<void>;
}

/** What an engine lends the ambient transaction (platform/db/transaction-engines.ts, one per engine). */
export interface TransactionEngine {
  /** a statement sent outside any transaction (a pooled connection, the embedded database) */
  outside(args: unknown[]): Promise<unknown>;
  /** takes a connection and begins a transaction on it */
  begin(): Promise<OpenTransaction>;
  /** a drizzle transaction object whose statements go to `client` */
  transactionOver(client: LazyTransactionClient): Db;
}

/** A plain read, which may run outside the transaction while it has not begun. */
const READ = /^\s*\(?\s*select\b/i;
const NOT_PLAIN = /\bfor\s+(?:update|share|no\s+key\s+update|key\s+share)\b|pg_advisory|nextval\s*\(|setval\s*\(/i;
const isPlainRead = (args: unknown[]) => {
  const first = args[0] as string | { text?: string } | undefined;
  const text = typeof first === 'string' ? first : (first?.text ?? '');
  return READ.test(text) && !NOT_PLAIN.test(text);
};

/** The driver-shaped client drizzle's session calls: begins the transaction on the first write. */
export class LazyTransactionClient {
  private open: Promise<OpenTransaction> | null = null;
  private ended = false;

  constructor(private readonly engine: TransactionEngine) {}

  /** has a statement begun the transaction? */
  get begun(): boolean {
    return this.open !== null;
  }

  query = async (...args: unknown[]): Promise<unknown> => {
    if (this.ended) throw new Error('the ambient transaction has ended');
    if (!this.open && isPlainRead(args)) return this.engine.outside(args);
    this.open ??= this.engine.begin();
    return (await this.open).query(args);
  };

  async end(commit: boolean, reason?: unknown): Promise<void> {
    this.ended = true;
    if (!this.open) return;
    let tx: OpenTransaction;
    try {
      tx = await this.open;
    } catch (e) {
      // it never began: nothing to end; a commit reports why
      if (commit) throw e;
      return;
    }
    await tx.end(commit, reason);
  }
}

interface Scope {
  client: LazyTransactionClient;
  tx: Db;
  after: (() => Promise<void> | void)[];
  ended: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

const current = (): Scope | undefined => {
  const s = scopes.getStore();
  return s && !s.ended ? s : undefined;
};

/**
 * `base` that sends its statements to the ambient transaction when the caller runs inside one
 * (after it has ended, to `base` again: work started inside may outlive it).
 */
export function ambientDb(base: Db): Db {
  return new Proxy(base, {
    get(target, prop) {
      const scope = current();
      const owner = (scope?.tx ?? target) as unknown as Record<PropertyKey, unknown>;
      const value = Reflect.get(owner, prop);
      return typeof value === 'function' ? value.bind(owner) : value;
    },
  });
}

/**
 * Runs fn inside an ambient transaction of `engine`: committed when fn resolves, rolled back when it
 * throws. Inside one already, fn joins it (the outer call commits). Answers fn's result once
 * committed and the afterCommit work is done.
 */
export async function runInAmbientTransaction<T>(engine: TransactionEngine, fn: () => Promise<T>): Promise<T> {
  if (current()) return fn();
  const client = new LazyTransactionClient(engine);
  const scope: Scope = { client, tx: engine.transactionOver(client), after: [], ended: false };
  return scopes.run(scope, async () => {
    let result: T;
    try {
      result = await fn();
    } catch (e) {
      scope.ended = true;
      await client.end(false, e).catch(() => undefined);
      throw e;
    }
    scope.ended = true;
    await client.end(true);
    for (const work of scope.after) {
      try {
        await work();
      } catch (e) {
        // the change is committed and answered; what follows it is reported, never undone
        console.error('work after a commit failed:', e);
      }
    }
    return result;
  });
}

/** Is the caller inside an ambient transaction? */
export const inAmbientTransaction = (): boolean => current() !== undefined;

/**
 * Work with an outside effect that must follow the change, not precede its commit: done once the
 * ambient transaction has committed (never when it rolls back); at once outside one.
 */
export async function afterCommit(work: () => Promise<void> | void): Promise<void> {
  const scope = current();
  if (scope) scope.after.push(work);
  else await work();
}
