import type pg from 'pg';

/**
 * A connection the server ends (a restart, a failover, an administrator's kill) emits 'error' on its
 * client; with no listener that error ends the process. The pool listens on idle clients only, so
 * every client gets its own listener from the moment it connects, and keeps it while checked out (a
 * transaction, the start-up lock, a job's claim). The query in hand fails with the same error (a
 * 503), and the pool drops the client when it is released.
 */
export function watchConnectionErrors(pool: pg.Pool): void {
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
