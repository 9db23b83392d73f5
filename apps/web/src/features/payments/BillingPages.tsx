import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { PaymentRow } from '@trainlab/contract';
import { MSG } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ListRow } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { BackLink } from '../../ui/BackLink';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { formatInr } from '../../ui/money';
import { PageHeader } from '../../ui/PageHeader';
import { openCheckout } from './checkout';
import { downloadReceipt, StatusBadge } from './payment-status';

type UsageRow = ListRow<'vm-payment-data'>;

const date = (v: string | null) => (v ? new Date(v).toLocaleDateString() : '—');
/** spec 02: used_min shown as used hours; the minutes beside them are what the run is charged for */
const hours = (min: number) => `${(min / 60).toFixed(2)} h (${min} min)`;
const when = (v: string | null | undefined) =>
  v ? new Date(v).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** /cloud-payment: the tenant's unpaid VM usage and its total; Pay only above 0. */
export function CloudPaymentPage() {
  const q = useApiQuery('vm-payment-data');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const total = q.data?.total_cost_paise ?? 0;

  const pay = () =>
    confirmAction({
      title: 'Payment',
      message: MSG.confirmPayment,
      onConfirm: async () => {
        setBusy(true);
        setError(null);
        try {
          const checkout = await apiPost('vm-checkout', {});
          await openCheckout(checkout, 'vm', navigate, () => navigate('/vm-payments-history'));
        } catch (e) {
          setError(errorText(e));
        } finally {
          setBusy(false);
        }
      },
    });

  const columns: DataTableColumn<UsageRow>[] = [
    {
      accessor: 'name',
      title: 'VM',
      // its VM Details shows the price per hour the run was charged at
      render: (r) =>
        r.vm_name ? (
          <Anchor component={Link} to={`/vm-details/${r.vm_name}`} size="sm">
            {r.name}
          </Anchor>
        ) : (
          r.name
        ),
    },
    { accessor: 'vm_start', title: 'Run', render: (r) => `${when(r.vm_start)} – ${when(r.vm_stop)}` },
    { accessor: 'user', title: 'User', render: (r) => (r.first_name ? `${r.first_name} ${r.last_name ?? ''}` : '—') },
    { accessor: 'email', title: 'Email', render: (r) => r.email ?? '—' },
    { accessor: 'created', title: 'Created', render: (r) => date(r.created) },
    { accessor: 'deleted', title: 'Deleted', render: (r) => date(r.deleted) },
    { accessor: 'used_min', title: 'Used hours', render: (r) => hours(r.used_min) },
    { accessor: 'total_cost', title: 'Cost', textAlign: 'right', render: (r) => formatInr(r.total_cost) },
  ];

  return (
    <Stack>
      <PageHeader
        title="Pay VM Billing"
        description={<BackLink to="/vm-list">VM list</BackLink>}
        actions={
          <Anchor component={Link} to="/vm-payments-history">
            Payment history
          </Anchor>
        }
      />
      <ErrorAlert message={error} />
      <Card withBorder>
        <Group justify="space-between">
          <div>
            <Text size="sm" c="dimmed">
              Total cost
            </Text>
            <Text size="xl" fw={700} data-testid="vm-total">
              {formatInr(q.data?.total_cost ?? 0)}
            </Text>
          </div>
          <Button onClick={pay} disabled={total <= 0 || q.isLoading} loading={busy}>
            Pay
          </Button>
        </Group>
      </Card>
      <Text size="sm" c="dimmed">
        Every finished run of your VMs that is not paid yet. A run costs its VM’s price per hour (on its VM Details) ×
        its minutes ÷ 60, rounded to the paisa; a run of a minute or two can cost ₹0.00 and is settled with the next
        payment. A VM that is running now appears here once it stops.
      </Text>
      <DataTable
        label="Unpaid VM usage"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
      />
    </Stack>
  );
}

/** /vm-payments-history: the tenant's VM bill payments with status and receipts. */
export function VmPaymentsHistoryPage() {
  const { list, query: q } = usePagedQuery('vm-payments-history', {}, { sort: '-created_at' });
  const columns: DataTableColumn<PaymentRow>[] = [
    { accessor: 'payment_id', title: 'Payment id', render: (r) => r.payment_id ?? '—' },
    { accessor: 'created_at', title: 'Date', sortable: true, render: (r) => new Date(r.created_at).toLocaleString() },
    { accessor: 'amount', title: 'Amount', sortable: true, textAlign: 'right', render: (r) => formatInr(r.amount) },
    { accessor: 'status', title: 'Status', sortable: true, render: (r) => <StatusBadge status={r.status} /> },
    {
      accessor: 'receipt',
      title: 'Receipt',
      render: (r) => (
        <Button
          size="xs"
          variant="subtle"
          onClick={() => downloadReceipt(r)}
          aria-label={`Download receipt ${r.receipt_no}`}
        >
          {r.receipt_no}
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <PageHeader title="VM Payment History" description={<BackLink to="/vm-list">VM list</BackLink>} />
      <DataTable
        label="VM payments"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
