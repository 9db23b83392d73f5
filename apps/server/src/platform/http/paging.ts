import { type ListQuery, PAGING, type Paged } from '@trainlab/contract';
import { type AnyColumn, asc, desc, or, type SQL, type Subquery, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/**
 * Server half of the list convention (contract `schemas/paging.ts`): page bounds, a sort taken only
 * from the keys the call declares, a search over named columns, and the total: counted in the same
 * query as the page (`count(*) over ()`), or for the hot lists by a count only when the page itself
 * cannot tell it (`toCountedPage`); never N+1.
 */
export interface PageWindow {
  page: number;
  per_page: number;
  limit: number;
  offset: number;
}

export function pageWindow(q: ListQuery): PageWindow {
  const page = q.page ?? 1;
  const per_page = Math.min(q.per_page ?? PAGING.defaultPerPage, PAGING.maxPerPage);
  return { page, per_page, limit: per_page, offset: (page - 1) * per_page };
}

type Orderable = AnyColumn | SQL | SQL.Aliased;

/**
 * ORDER BY for `sort` ('name' or '-name'), falling back to `fallback` when none is given. A tie-breaker
 * (the table's id) always comes last so pages never repeat or skip a row.
 */
export function orderFor<K extends string>(
  sort: K | `-${K}` | undefined,
  keys: Record<K, Orderable>,
  fallback: SQL[],
  tieBreaker: Orderable,
): SQL[] {
  if (!sort) return [...fallback, asc(tieBreaker as AnyColumn)];
  const descending = sort.startsWith('-');
  const key = (descending ? sort.slice(1) : sort) as K;
  const column = keys[key] as AnyColumn;
  return descending ? [desc(column), desc(tieBreaker as AnyColumn)] : [asc(column), asc(tieBreaker as AnyColumn)];
}

/** Escapes LIKE wildcards so a search for '50%' finds the text '50%'. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `col1 ILIKE %s% OR col2 ILIKE %s% …`, or undefined when there is no search. */
export function searchWhere(search: string | undefined, columns: Orderable[]): SQL | undefined {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return or(...columns.map((c) => sql`${c}::text ilike ${pattern}`));
}

/**
 * Select this beside a page's columns to get the total without a second query. It makes the
 * database read, and sort, every matching row for each page: hot lists use `toCountedPage`.
 */
export const totalOver = () => sql<number>`count(*) over ()`.mapWith(Number);

/**
 * Shapes a page fetched with a plain LIMIT (no `totalOver`), so the database reads only the page's
 * rows through the sort's index. A page shorter than `per_page` tells the total by itself; a full
 * page reads the count its rows carry (`cappedCount`, selected beside them: one statement), or asks
 * `countAll` (an index-only count of the filter), as does an empty page past the end.
 */
export async function toCountedPage<R, T>(
  rows: R[],
  window: PageWindow,
  map: (row: R) => T,
  countAll: (limit: number) => Promise<number>,
): Promise<Paged<T>> {
  const page = { list: rows.map(map), page: window.page, per_page: window.per_page };
  if (rows.length > 0 && rows.length < window.per_page) return { ...page, total: window.offset + rows.length };
  if (!rows.length && window.page === 1) return { ...page, total: 0 };
  const reach = window.offset + window.per_page + COUNT_AHEAD;
  // one row past the reach tells "more than that" from "exactly that" (a count that ignores the
  // limit is exact, and answered as it is)
  const carried = (rows[0] as { capped_total?: number } | undefined)?.capped_total;
  const counted = carried === undefined ? await countAll(reach + 1) : Number(carried);
  return counted === reach + 1 ? { ...page, total: reach, total_capped: true } : { ...page, total: counted };
}

/**
 * Select beside a hot list's page columns, as `capped_total`: how many rows of `table` match
 * `where`, read up to the page's reach and one more (what `toCountedPage` needs). It names no column
 * of the page's rows, so the database works it out once per statement (an InitPlan), when the first
 * row is produced: the page and its total cost one round trip, not two.
 */
export function cappedCount(table: PgTable, where: SQL | undefined, window: PageWindow) {
  const limit = window.offset + window.per_page + COUNT_AHEAD + 1;
  const filter = where ? sql` where ${where}` : sql``;
  return sql<number>`(select count(*)::int from (select 1 from ${table}${filter} limit ${limit}) capped)`.mapWith(
    Number,
  );
}

/**
 * How far past the page asked for a hot list counts. Counting a tenant's 100,000 rows on every
 * page costs more than the page itself (an index-only scan of all of them, decision 0047); past
 * this many rows beyond the page's end the answer says `total_capped`: there are more than
 * `total` rows. The total grows as the reader pages on.
 */
export const COUNT_AHEAD = 1000;

/**
 * `select count(*) from (<rows> limit n)`: a count that reads at most `limit` rows. `rows` is the
 * list's own filter (same joins, same search) selecting any one column, with its limit applied.
 */
export async function countUpTo(db: Db, rows: { as(alias: string): Subquery }): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(rows.as('capped'));
  return Number(row?.n ?? 0);
}

/**
 * Shapes a page whose rows carry `total` (from `totalOver`). An empty page past the end cannot
 * carry it, so `countAll` is asked then (only then).
 */
export async function toPage<R extends { total: number }, T>(
  rows: R[],
  window: PageWindow,
  map: (row: R) => T,
  countAll: () => Promise<number>,
): Promise<Paged<T>> {
  const total = rows.length ? Number(rows[0]!.total) : window.page > 1 ? await countAll() : 0;
  return { list: rows.map(map), total, page: window.page, per_page: window.per_page };
}

/**
 * The total of a page that came back empty, read from the list's own query (same joins, same
 * filter and search) run for its first row. Counting the base table instead would drop a search on
 * a joined column and answer the unfiltered total.
 */
export async function totalAtFirstRow(firstRow: PromiseLike<{ total: number }[]>): Promise<number> {
  const [row] = await firstRow;
  return Number(row?.total ?? 0);
}

/**
 * `select count(*) from table where …`: the total of a page that came back empty, or of a full
 * page; with `limit`, reading at most that many rows (countUpTo).
 */
export async function countWhere(db: Db, table: PgTable, where: SQL | undefined, limit?: number): Promise<number> {
  if (limit !== undefined) return countUpTo(db, db.select({ one: sql`1` }).from(table).where(where).limit(limit));
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return Number(row?.n ?? 0);
}
