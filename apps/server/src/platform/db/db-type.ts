import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from '../../db/schema';

/**
 * The database's type alone, in a file of its own: client.ts (which opens it) and
 * ambient-transaction.ts (which client.ts uses) both name it without importing each other.
 */
export type Schema = typeof schema;
/** PGlite and node-postgres share drizzle's PgDatabase surface; code depends only on that. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
