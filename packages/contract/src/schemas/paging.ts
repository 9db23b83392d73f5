import { z } from 'zod';

/**
 * The one list convention (every `get-*`, `*-list`, `all-*` call that can grow):
 * - request: optional `page` (from 1), `per_page` (capped), `search` (free text), `sort` (a key the
 *   call declares, `-key` for descending);
 * - response: `list` as before (old clients keep working) plus `total`, `page`, `per_page`.
 * A call without `page` answers the first page. Each call declares its own sort keys, so an unknown
 * key is a 422 like any other bad field, and the OpenAPI document lists them.
 */
export const PAGING = { defaultPerPage: 20, maxPerPage: 100, maxSearch: 100 } as const;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** The paging fields of a list request; `sortKeys` are the columns the call can order by. */
export function listFields<K extends string>(sortKeys: readonly [K, ...K[]]) {
  const sorts = sortKeys.flatMap((k) => [k, `-${k}`]) as [string, ...string[]];
  return {
    page: z.preprocess(blank, z.coerce.number().int().min(1).max(1_000_000).optional()),
    per_page: z.preprocess(blank, z.coerce.number().int().min(1).max(PAGING.maxPerPage).optional()),
    search: z.preprocess(blank, z.string().trim().max(PAGING.maxSearch).optional()),
    sort: z.preprocess(
      blank,
      z
        .enum(sorts, { error: () => `The sort must be one of: ${sorts.join(', ')}.` })
        .optional()
        .transform((v) => v as K | `-${K}` | undefined),
    ),
  };
}

/** A list request with nothing but the paging fields. */
export const listRequest = <K extends string>(sortKeys: readonly [K, ...K[]]) => z.object(listFields(sortKeys));

/** A paged list response: the rows of one page and where they sit in the whole. */
export const pagedList = <T extends z.ZodType>(item: T) =>
  z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
    /** set when a very long list was counted only so far: there are more than `total` rows */
    total_capped: z.literal(true).optional(),
  });

export type ListQuery<K extends string = string> = {
  page?: number;
  per_page?: number;
  search?: string;
  sort?: K | `-${K}`;
};
export interface Paged<T> {
  list: T[];
  total: number;
  page: number;
  per_page: number;
  total_capped?: true;
}
