import { Button, Code, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import type { AuditEntry } from '@trainlab/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { apiDownload } from '../../api/upload';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';

const FILTERS = [
  { name: 'actor', label: 'Actor (id or e-mail)', type: 'text' },
  { name: 'action', label: 'Action', type: 'text' },
  { name: 'target_type', label: 'Target type', type: 'text' },
  { name: 'target_id', label: 'Target id', type: 'text' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
] as const;
type FilterName = (typeof FILTERS)[number]['name'];

function changesText(changes: AuditEntry['changes']): string {
  return Object.entries(changes)
    .map(([field, c]) => `${field}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)
    .join('\n');
}

/** /audit-log: who changed what and when; the admin sees every row, a manager their tenant's. */
export function AuditLogPage() {
  const title = useRouteTitle();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(
    FILTERS.map((f) => [f.name, params.get(f.name) ?? '']).filter(([, v]) => v !== ''),
  ) as Partial<Record<FilterName, string>>;
  const { list, query: q } = usePagedQuery('get-audit-log', filters, { sort: '-at' });
  const [exporting, setExporting] = useState(false);

  const setFilter = (name: FilterName, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const exportCsv = async () => {
    setExporting(true);
    try {
      await apiDownload('export-audit-log', filters, `audit-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e) });
    } finally {
      setExporting(false);
    }
  };

  const columns: DataTableColumn<AuditEntry>[] = [
    { accessor: 'at', title: 'When', sortable: true, render: (r) => new Date(r.at).toLocaleString() },
    { accessor: 'actor_email', title: 'Actor', render: (r) => `${r.actor_email ?? '—'} (#${r.actor_id ?? '—'})` },
    { accessor: 'actor_role', title: 'Role', sortable: true },
    { accessor: 'action', title: 'Action', sortable: true },
    { accessor: 'target_type', title: 'Target', render: (r) => `${r.target_type} ${r.target_id ?? ''}` },
    {
      accessor: 'changes',
      title: 'Changes',
      render: (r) => (
        <Code block style={{ whiteSpace: 'pre-wrap', maxWidth: 420 }}>
          {changesText(r.changes) || '—'}
        </Code>
      ),
    },
    { accessor: 'ip', title: 'Address' },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Every change made by administrators and managers: who, when, what, and from where."
        actions={
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={exporting}
            onClick={exportCsv}
          >
            Export CSV
          </Button>
        }
      />
      <Group align="end" gap="sm" role="search" aria-label="Audit filters">
        {FILTERS.map((f) => (
          <TextInput
            key={f.name}
            label={f.label}
            type={f.type}
            value={filters[f.name] ?? ''}
            onChange={(e) => setFilter(f.name, e.currentTarget.value)}
            w={f.type === 'date' ? 160 : 180}
          />
        ))}
      </Group>
      <DataTable
        label="Audit trail"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped }}
      />
    </Stack>
  );
}
