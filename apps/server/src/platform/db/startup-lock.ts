import type pg from 'pg';

// The two engines of Database.exclusive (client.ts): of several server instances starting together on
// one database, only one at a time migrates or seeds (PostgreSQL); one process owns PGlite's folder.

/** Key of the start-up advisory lock (any fixed bigint; advisory locks are per database). */
export const STARTUP_LOCK_KEY = 7_301_202_601;

/** Runs fn under the PostgreSQL session-level advisory lock `key`, taken on a connection of its own. */
export async function withAdvisoryLock<T>(pool: pg.Pool, key: number, fn: () => Promise<T>): Promise<T> {
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
export function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
