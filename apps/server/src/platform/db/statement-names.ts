import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Reads worth preparing: a SELECT of ordinary length. Writes are not the hot path, and a bulk
 * INSERT's text changes with its row count (each count would stay prepared on the connection).
 */
const PREPARABLE = /^\s*select\b/i;
const MAX_TEXT = 8_000;
/** Names remembered by text; past this many the name is worked out again (a hash) for each use. */
const MAX_REMEMBERED = 2_000;

type QueryConfig = { text?: unknown; name?: unknown };

/**
 * Names drizzle's reads after their text, so that each pooled connection parses and plans a read
 * once and from then on only binds and executes it: PostgreSQL's prepared statements, which the
 * postgres.js driver uses by default too (decision 0049). A call site's text is fixed (values travel
 * as parameters), so the names are few; PostgreSQL keeps them per connection, until it ends (the
 * pool ends idle connections, and a restarted database starts every connection afresh).
 *
 * A pooler in transaction mode that does not track prepared statements (PgBouncer before 1.21)
 * breaks them: DATABASE_PREPARED_STATEMENTS=false turns this off.
 */
export function nameStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    const known = names.get(text);
    if (known) return known;
    const name = `tl_${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size < MAX_REMEMBERED) names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    // the driver's own query, looked up at each call: a tool that wraps the driver's prototype (the
    // list benches' plan capture) still sees every statement
    const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
    const query = (...args: unknown[]) => proto.query.apply(client, args);
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const c = config as QueryConfig | null;
      if (
        c &&
        typeof c === 'object' &&
        c.name === undefined &&
        typeof c.text === 'string' &&
        c.text.length <= MAX_TEXT &&
        PREPARABLE.test(c.text)
      ) {
        return query({ ...c, name: nameOf(c.text) }, ...rest);
      }
      return query(config, ...rest);
    };
  });
}
