import { Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ApiAnswer } from '../../api/call-types';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { BackLink, required, type VmPrice } from './shared';
import { UpdateRowForm, updateRowColumn, useRowUpdated } from './UpdateRow';

/** Prices per hour are fractions of a unit; show them as entered. */
const money = (v: number) => String(v);

type Pricing = ApiAnswer<'get-pricing'>;

const FIELDS = [
  { name: 'cl_linux', label: 'Linux cloud price (per hour)' },
  { name: 'linux', label: 'Linux platform price (per hour)' },
  { name: 'cl_windows', label: 'Windows cloud price (per hour)' },
  { name: 'windows', label: 'Windows platform price (per hour)' },
  { name: 'cl_storage', label: 'Storage cloud price (monthly, per GB)' },
  { name: 'storage', label: 'Storage platform price (monthly, per GB)' },
] as const;
type PriceField = (typeof FIELDS)[number]['name'];
type PriceValues = Record<PriceField, string>;

function PriceForm({ row, pricing, onDone }: { row: VmPrice; pricing: Pricing; onDone: () => void }) {
  const { form, onSubmit, otherError, submitting } = useApiForm<PriceValues, 'update-vm-pricing'>({
    path: 'update-vm-pricing',
    initialValues: {
      cl_linux: String(row.cl_linux_price),
      linux: String(row.linux),
      cl_windows: String(row.cl_windows_price),
      windows: String(row.windows),
      cl_storage: String(pricing.cl_storage_price),
      storage: String(pricing.storage_price),
    },
    validate: Object.fromEntries(FIELDS.map((f) => [f.name, required(f.name.replace('_', ' '))])),
    // named one by one (in the order of FIELDS) so the typecheck sees each price the call takes
    toBody: (v) => ({
      id: row.id,
      cl_linux: v.cl_linux.trim(),
      linux: v.linux.trim(),
      cl_windows: v.cl_windows.trim(),
      windows: v.windows.trim(),
      cl_storage: v.cl_storage.trim(),
      storage: v.storage.trim(),
    }),
    onSuccess: useRowUpdated('get-pricing', onDone),
  });
  return (
    <UpdateRowForm onSubmit={onSubmit} otherError={otherError} submitting={submitting} onCancel={onDone}>
      <Text size="sm" c="dimmed">
        {row.memory} GB RAM, {row.virtual_cpu} vCPU
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {FIELDS.map((f) => (
          <TextInput key={f.name} label={f.label} withAsterisk inputMode="decimal" {...form.getInputProps(f.name)} />
        ))}
      </SimpleGrid>
    </UpdateRowForm>
  );
}

/** /admin/vm-pricing-chart: pricing rows by RAM and the monthly storage prices, each editable. */
export function VmPricingPage() {
  const title = useRouteTitle();
  const q = useApiQuery('get-pricing');
  const [editing, setEditing] = useState<VmPrice | null>(null);
  const columns: DataTableColumn<VmPrice>[] = [
    { accessor: 'memory', title: 'RAM', render: (r) => `${r.memory} GB` },
    { accessor: 'virtual_cpu', title: 'vCPU' },
    {
      accessor: 'cl_linux_price',
      title: 'Linux cloud / hr',
      textAlign: 'right',
      render: (r) => money(r.cl_linux_price),
    },
    { accessor: 'linux', title: 'Linux platform / hr', textAlign: 'right', render: (r) => money(r.linux) },
    {
      accessor: 'cl_windows_price',
      title: 'Windows cloud / hr',
      textAlign: 'right',
      render: (r) => money(r.cl_windows_price),
    },
    { accessor: 'windows', title: 'Windows platform / hr', textAlign: 'right', render: (r) => money(r.windows) },
    updateRowColumn<VmPrice>((r) => `Update ${r.memory} GB pricing`, setEditing),
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to="/admin/home">Back to home</BackLink>} />
      {q.data ? (
        <Paper withBorder radius="md" p="md">
          <Text fw={600} mb="xs">
            Storage (monthly, per GB)
          </Text>
          <Group gap="xl">
            <Text size="sm">
              Cloud price: <b>{money(q.data.cl_storage_price)}</b>
            </Text>
            <Text size="sm">
              Platform price: <b>{money(q.data.storage_price)}</b>
            </Text>
          </Group>
        </Paper>
      ) : null}
      <DataTable label="VM pricing" records={q.data?.list} columns={columns} loading={q.isLoading} error={q.error} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Update VM pricing" size="lg">
        {editing && q.data ? (
          <PriceForm key={editing.id} row={editing} pricing={q.data} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </Stack>
  );
}
