import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ApiAnswer, PagedArgs, PagedPath, SendCall } from './call-types';
import { apiPost } from './client';

/**
 * The state of a paged list, kept in the URL (?page=2&search=x&sort=-name), so the back button and a
 * shared link show the same page. Several lists on one screen use different `prefix`es.
 */
export interface ListState {
  page: number;
  per_page: number;
  search: string;
  sort: string | undefined;
  setPage(page: number): void;
  setPerPage(perPage: number): void;
  setSearch(search: string): void;
  setSort(sort: string | undefined): void;
}

export function useListState(options: { sort?: string; per_page?: number; prefix?: string } = {}): ListState {
  const [params, setParams] = useSearchParams();
  const prefix = options.prefix ?? '';
  const key = (name: string) => `${prefix}${name}`;
  const page = Math.max(1, Number.parseInt(params.get(key('page')) ?? '1', 10) || 1);
  const per_page = Number.parseInt(params.get(key('per_page')) ?? '', 10) || options.per_page || 20;
  const search = params.get(key('search')) ?? '';
  const sort = params.get(key('sort')) ?? options.sort;

  const update = useCallback(
    (patch: Record<string, string | undefined>, replace = false) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [name, value] of Object.entries(patch)) {
            if (value === undefined || value === '') next.delete(`${prefix}${name}`);
            else next.set(`${prefix}${name}`, value);
          }
          return next;
        },
        { replace },
      ),
    [setParams, prefix],
  );

  return useMemo(
    () => ({
      page,
      per_page,
      search,
      sort,
      setPage: (p) => update({ page: p > 1 ? String(p) : undefined }),
      setPerPage: (n) => update({ per_page: String(n), page: undefined }),
      // typing replaces the history entry instead of adding one per keystroke
      setSearch: (s) => update({ search: s || undefined, page: undefined }, true),
      setSort: (s) => update({ sort: s, page: undefined }),
    }),
    [page, per_page, search, sort, update],
  );
}

interface PagedOptions {
  sort?: string;
  per_page?: number;
  prefix?: string;
  enabled?: boolean;
}

/**
 * A paged list call (the list convention): the URL's page, search and sort are sent with `body`,
 * and the previous page stays on screen while the next one loads. Typed by the path: `body` is the
 * call's request without the paging keys, the data its page of rows.
 */
export function usePagedQuery<P extends PagedPath>(
  path: P,
  ...args: PagedArgs<P, PagedOptions>
): { list: ListState; query: UseQueryResult<ApiAnswer<P>, Error> };
export function usePagedQuery(path: string, body: Record<string, unknown> = {}, options: PagedOptions = {}) {
  const list = useListState(options);
  const request = {
    ...body,
    page: list.page,
    per_page: list.per_page,
    ...(list.search ? { search: list.search } : {}),
    ...(list.sort ? { sort: list.sort } : {}),
  };
  const query = useQuery({
    queryKey: [path, request],
    queryFn: () => (apiPost as SendCall)(path, request),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
  return { list, query };
}
