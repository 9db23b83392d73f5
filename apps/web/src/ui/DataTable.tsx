import 'mantine-datatable/styles.css';
import { Box, Group, Loader, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconInbox, IconSearch } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { type DataTableColumn, type DataTableSortStatus, DataTable as MantineDataTable } from 'mantine-datatable';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { errorText } from '../api/client';
import type { ListState } from '../api/use-paged-query';
import { ErrorAlert } from './ErrorAlert';

export type { DataTableColumn };

interface DataTableProps<T> {
  records: T[] | undefined;
  columns: DataTableColumn<T>[];
  /** the key of each row (default `id`) */
  idAccessor?: keyof T | ((record: T) => string | number);
  loading?: boolean;
  error?: unknown;
  /** shows a search box that filters rows on these fields (client side) */
  searchOn?: (keyof T)[];
  /** adds the spec's 'Sr.No' column first */
  serial?: boolean;
  emptyText?: string;
  /** the accessible name of the table */
  label: string;
  pageSize?: number;
  /**
   * Server paging (the list convention): `records` is one page, and page, search and sort live in
   * `list` (the URL). Columns marked `sortable` sort on the server by their accessor. `capped`: the
   * server counted a very long list only so far (`total_capped`): there are more than `total`.
   */
  paged?: { list: ListState; total: number | undefined; capped?: boolean; searchable?: boolean };
  /** the search box's label, when a screen has more than one table to search */
  searchLabel?: string;
  /** keeps the last column (a row's actions) in view while a wide table scrolls sideways */
  pinLastColumn?: boolean;
}

const NO_SORT = { columnAccessor: '', direction: 'asc' } as const;

/** 'name' / '-name' ⇄ mantine-datatable's sort status. */
const toSortStatus = <T,>(sort: string | undefined): DataTableSortStatus<T> | undefined =>
  sort ? { columnAccessor: sort.replace(/^-/, ''), direction: sort.startsWith('-') ? 'desc' : 'asc' } : undefined;

/** The search box of a server-paged table: typing settles for 300 ms before the URL (and the call) changes. */
function useDebouncedSearch(list: ListState | undefined) {
  const [text, setText] = useState(list?.search ?? '');
  useEffect(() => {
    if (!list || text === list.search) return;
    const timer = window.setTimeout(() => list.setSearch(text.trim()), 300);
    return () => window.clearTimeout(timer);
  }, [text, list]);
  return [text, setText] as const;
}

function SearchBox({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  return (
    <TextInput
      label={label}
      placeholder="Search…"
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maw={360}
    />
  );
}

/** The value a column shows for a record: its render function, else the accessor's field. */
function cellOf<T>(column: DataTableColumn<T>, record: T, index: number): ReactNode {
  if (column.render) return column.render(record, index);
  const value = (record as Record<string, unknown>)[String(column.accessor)];
  return value === null || value === undefined ? '' : String(value);
}

/**
 * On a phone (under 36em) each row is a card of 'title: value' lines, so nothing scrolls sideways;
 * the action column comes last, as the card's footer.
 */
function CardList<T>({
  records,
  columns,
  keyOf,
  label,
}: {
  records: T[];
  columns: DataTableColumn<T>[];
  keyOf: (r: T, i: number) => string | number;
  label: string;
}) {
  return (
    <Stack gap="xs" role="list" aria-label={label}>
      {records.map((record, i) => (
        <Paper key={keyOf(record, i)} withBorder radius="md" p="sm" role="listitem">
          <Stack gap={4}>
            {columns.map((c) => {
              const cell = cellOf(c, record, i);
              const isActions = String(c.accessor) === 'actions';
              return isActions ? (
                <Group key={String(c.accessor)} justify="flex-end" pt={4}>
                  {cell}
                </Group>
              ) : (
                <Group key={String(c.accessor)} gap="xs" wrap="nowrap" align="flex-start">
                  <Text size="sm" c="dimmed" miw={110} style={{ flexShrink: 0 }}>
                    {c.title ?? String(c.accessor)}
                  </Text>
                  <Box fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    {cell}
                  </Box>
                </Group>
              );
            })}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/**
 * Every list screen's table: loading, error ('Something went worng.' etc.) and empty ('No Data Found',
 * once) states, an optional search, a 'Sr.No' column, pagination, server paging with the state in the
 * URL (`paged`), and cards instead of a table on a phone.
 */
export function DataTable<T>({
  records,
  columns,
  idAccessor,
  loading,
  error,
  searchOn,
  serial = true,
  emptyText = MSG.noDataFound,
  label,
  pageSize = 20,
  paged,
  searchLabel = 'Search',
  pinLastColumn,
}: DataTableProps<T>) {
  const [query, setQuery] = useState('');
  const [localPage, setLocalPage] = useState(1);
  const [serverSearch, setServerSearch] = useDebouncedSearch(paged?.list);
  const phone = useMediaQuery('(max-width: 36em)');
  const page = paged ? paged.list.page : localPage;
  const perPage = paged ? paged.list.per_page : pageSize;
  const filtered = useMemo(() => {
    const rows = records ?? [];
    const q = query.trim().toLowerCase();
    if (paged || !q || !searchOn?.length) return rows;
    return rows.filter((r) =>
      searchOn.some((k) =>
        String(r[k] ?? '')
          .toLowerCase()
          .includes(q),
      ),
    );
  }, [records, query, searchOn, paged]);
  const pageRows = paged ? filtered : filtered.slice((page - 1) * pageSize, page * pageSize);
  const totalRecords = paged ? (paged.total ?? 0) : filtered.length;
  const onPageChange = paged ? paged.list.setPage : setLocalPage;
  const allColumns: DataTableColumn<T>[] = serial
    ? [
        {
          accessor: '__sr' as never,
          title: 'Sr.No',
          width: 70,
          render: (record) => (page - 1) * perPage + pageRows.indexOf(record) + 1,
        },
        ...columns,
      ]
    : columns;
  const keyOf = (r: T, i: number): string | number =>
    typeof idAccessor === 'function'
      ? idAccessor(r)
      : (((r as Record<string, unknown>)[String(idAccessor ?? 'id')] as string | number | undefined) ?? i);
  // The footer only when there is something to page through: an empty table says 'No Data Found' once.
  const pagination =
    totalRecords > 0
      ? {
          totalRecords,
          recordsPerPage: perPage,
          page,
          onPageChange,
          paginationText: ({ from, to, totalRecords: n }: { from: number; to: number; totalRecords: number }) =>
            paged?.capped ? `${from}–${to} of more than ${n.toLocaleString('en-IN')}` : `${from}–${to} of ${n}`,
        }
      : {};

  return (
    <Stack gap="sm">
      {paged?.searchable ? <SearchBox value={serverSearch} onChange={setServerSearch} label={searchLabel} /> : null}
      {!paged && searchOn?.length ? (
        <SearchBox
          label={searchLabel}
          value={query}
          onChange={(v) => {
            setQuery(v);
            setLocalPage(1);
          }}
        />
      ) : null}
      {error ? <ErrorAlert message={errorText(error)} /> : null}
      {phone && pageRows.length === 0 ? (
        // no table on a phone even without rows: its header alone is wider than the screen
        <Paper withBorder radius="md" p="lg" role="status" aria-label={label}>
          <Stack align="center" gap={4}>
            {loading ? <Loader type="dots" size="sm" /> : <IconInbox size={28} stroke={1.5} aria-hidden />}
            <Text size="sm" c="dimmed">
              {loading ? 'Loading…' : emptyText}
            </Text>
          </Stack>
        </Paper>
      ) : phone ? (
        <>
          <CardList records={pageRows} columns={allColumns} keyOf={keyOf} label={label} />
          {totalRecords > perPage ? (
            <Group justify="center">
              <Pagination
                total={Math.ceil(totalRecords / perPage)}
                value={page}
                onChange={onPageChange}
                size="sm"
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              />
            </Group>
          ) : null}
        </>
      ) : (
        <Paper withBorder radius="md">
          <MantineDataTable<T>
            aria-label={label}
            // a table wider than the screen scrolls: its scroll area takes keyboard focus (arrow keys
            // scroll it) and is a named region, so it can be reached and is announced (WCAG 2.1.1)
            scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}
            minHeight={pageRows.length ? undefined : 200}
            striped
            highlightOnHover
            pinLastColumn={pinLastColumn}
            verticalSpacing="sm"
            records={pageRows}
            columns={allColumns}
            idAccessor={(idAccessor ?? ('id' as keyof T)) as never}
            fetching={loading}
            loaderType="dots"
            noRecordsText={loading ? 'Loading…' : emptyText}
            noRecordsIcon={<IconInbox size={28} stroke={1.5} aria-hidden />}
            sortStatus={paged ? (toSortStatus<T>(paged.list.sort) ?? NO_SORT) : (undefined as never)}
            onSortStatusChange={
              paged
                ? (s: DataTableSortStatus<T>) =>
                    paged.list.setSort(`${s.direction === 'desc' ? '-' : ''}${String(s.columnAccessor)}`)
                : (undefined as never)
            }
            {...(pagination as Record<string, never>)}
          />
        </Paper>
      )}
    </Stack>
  );
}
