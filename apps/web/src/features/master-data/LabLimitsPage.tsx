import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { LAB_TENANT_LIMITS } from '@trainlab/contract';
import { useState } from 'react';
import type { ListRow } from '../../api/call-types';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { BackLink } from './shared';
import { UpdateRowForm, updateRowColumn, useRowUpdated } from './UpdateRow';

type LimitRow = ListRow<'lab-tenant-limits'>;

const ofLimit = (used: number, limit: number | null, unit = '') =>
  `${used}${unit} of ${limit == null ? 'no limit' : `${limit}${unit}`}`;

type LimitValues = { max_running_labs: string; max_running_ram_gb: string };

function LimitForm({ row, onDone }: { row: LimitRow; onDone: () => void }) {
  const { form, onSubmit, otherError, submitting } = useApiForm<LimitValues, 'update-lab-tenant-limits'>({
    path: 'update-lab-tenant-limits',
    initialValues: {
      max_running_labs: row.max_running_labs == null ? '' : String(row.max_running_labs),
      max_running_ram_gb: row.max_running_ram_gb == null ? '' : String(row.max_running_ram_gb),
    },
    toBody: (v) => ({
      id: row.id,
      max_running_labs: v.max_running_labs.trim(),
      max_running_ram_gb: v.max_running_ram_gb.trim(),
    }),
    onSuccess: useRowUpdated('lab-tenant-limits', onDone),
  });
  return (
    <UpdateRowForm onSubmit={onSubmit} otherError={otherError} submitting={submitting} onCancel={onDone}>
      <Text size="sm" c="dimmed">
        {row.tenant} ({row.kind}). Leave a field empty for no limit; a start past a limit is refused.
      </Text>
      <TextInput
        label="Labs running at once"
        description={`1 to ${LAB_TENANT_LIMITS.maxRunningLabs}`}
        inputMode="numeric"
        {...form.getInputProps('max_running_labs')}
      />
      <TextInput
        label="RAM of running labs (GB)"
        description={`1 to ${LAB_TENANT_LIMITS.maxRunningRamGb}`}
        inputMode="numeric"
        {...form.getInputProps('max_running_ram_gb')}
      />
    </UpdateRowForm>
  );
}

/** /admin/lab-limits: each tenant's limits on labs running at once and their RAM, and what runs now. */
export function LabLimitsPage() {
  const title = useRouteTitle();
  const q = useApiQuery('lab-tenant-limits');
  const [editing, setEditing] = useState<LimitRow | null>(null);
  const columns: DataTableColumn<LimitRow>[] = [
    { accessor: 'tenant', title: 'Tenant' },
    { accessor: 'kind', title: 'Kind', render: (r) => (r.kind === 'provider' ? 'Learning provider' : 'Organization') },
    { accessor: 'username', title: 'Lab account' },
    { accessor: 'running_labs', title: 'Running labs', render: (r) => ofLimit(r.running_labs, r.max_running_labs) },
    {
      accessor: 'running_ram_gb',
      title: 'RAM of running labs',
      render: (r) => ofLimit(r.running_ram_gb, r.max_running_ram_gb, ' GB'),
    },
    updateRowColumn<LimitRow>((r) => `Update lab limits of ${r.tenant}`, setEditing),
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to="/admin/home">Back to home</BackLink>} />
      <DataTable label="Lab limits" records={q.data?.list} columns={columns} loading={q.isLoading} error={q.error} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Update lab limits" size="md">
        {editing ? <LimitForm key={editing.id} row={editing} onDone={() => setEditing(null)} /> : null}
      </Modal>
    </Stack>
  );
}
