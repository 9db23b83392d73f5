import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Rows per INSERT for imports: well under the drivers' bind-parameter limit (PostgreSQL's 65,535;
 * PGlite fails earlier, on the size of one statement) for every table we import into.
 */
export const INSERT_CHUNK = 500;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const chunksOf = <T>(rows: readonly T[], size = INSERT_CHUNK): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

/** Inserts `values` in slices inside the caller's transaction, so a file is written whole or not at all. */
export async function insertChunked<T extends PgTable>(tx: Tx, table: T, values: T['$inferInsert'][]): Promise<void> {
  for (const slice of chunksOf(values)) await tx.insert(table).values(slice);
}
