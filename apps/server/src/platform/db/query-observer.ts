import type { Logger } from 'drizzle-orm/logger';

type Listener = (query: string) => void;
const listeners = new Set<Listener>();

/**
 * Every statement drizzle sends passes here; nothing listens in production. Tests use it to count
 * the queries of one call (a list must not issue one query per row).
 */
export const queryObserver: Logger = {
  logQuery(query) {
    for (const l of listeners) l(query);
  },
};

/** Runs fn and answers the statements it sent. */
export async function recordQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  const listener: Listener = (q) => queries.push(q);
  listeners.add(listener);
  try {
    return { result: await fn(), queries };
  } finally {
    listeners.delete(listener);
  }
}
