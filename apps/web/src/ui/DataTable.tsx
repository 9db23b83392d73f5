import { Paper, Stack, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { type DataTableColumn, DataTable as MantineDataTable } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { errorText } from '../api/client';
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
}

/**
 * Every list screen's table: loading, error ('Something went worng.' etc.) and empty ('No Data Found')
 * states, an optional search, a 'Sr.No' column and pagination, all the same way.
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
}: DataTableProps<T>) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const filtered = useMemo(() => {
    const rows = records ?? [];
    const q = query.trim().toLowerCase();
    if (!q || !searchOn?.length) return rows;
    return rows.filter((r) =>
      searchOn.some((k) =>
        String(r[k] ?? '')
          .toLowerCase()
          .includes(q),
      ),
    );
  }, [records, query, searchOn]);
  const pageRows = filtered.slice((page - 1) * pageSize, page * pageSize);
  const allColumns: DataTableColumn<T>[] = serial
    ? [
        {
          accessor: '__sr' as never,
          title: 'Sr.No',
          width: 70,
          render: (record) => (page - 1) * pageSize + pageRows.indexOf(record) + 1,
        },
        ...columns,
      ]
    : columns;

  return (
    <Stack gap="sm">
      {searchOn?.length ? (
        <TextInput
          label="Search"
          placeholder="Search…"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setPage(1);
          }}
          maw={360}
        />
      ) : null}
      {error ? <ErrorAlert message={errorText(error)} /> : null}
      <Paper withBorder radius="md">
        <MantineDataTable<T>
          aria-label={label}
          minHeight={pageRows.length ? undefined : 180}
          striped
          highlightOnHover
          verticalSpacing="sm"
          records={pageRows}
          columns={allColumns}
          idAccessor={(idAccessor ?? ('id' as keyof T)) as never}
          fetching={loading}
          loaderType="dots"
          noRecordsText={loading ? 'Loading…' : emptyText}
          totalRecords={filtered.length}
          recordsPerPage={pageSize}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
        />
      </Paper>
    </Stack>
  );
}
