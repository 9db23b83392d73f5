import { Button } from '@mantine/core';
import type { PaymentRow } from '@trainlab/contract';
import type { ListState } from '../../api/use-paged-query';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { inr } from '../catalog/cards';
import { downloadReceipt, StatusBadge } from './payment-status';

/**
 * The buyer's payments (every attempt, with its status and receipt). A table on a laptop and a card
 * per payment on a phone, so no column is ever cut off at 360 px.
 */
export function PaymentsTable({
  records,
  loading,
  error,
  paged,
  label = 'Your payments',
}: {
  records: PaymentRow[] | undefined;
  loading: boolean;
  error: unknown;
  paged?: { list: ListState; total: number | undefined; capped?: boolean; searchable?: boolean };
  label?: string;
}) {
  const columns: DataTableColumn<PaymentRow>[] = [
    {
      accessor: 'created_at',
      title: 'Date',
      sortable: true,
      render: (p) => new Date(p.created_at).toLocaleDateString(),
    },
    { accessor: 'items', title: 'Items', render: (p) => p.items.map((i) => i.name).join(', ') },
    { accessor: 'amount', title: 'Amount', sortable: true, textAlign: 'right', render: (p) => inr(p.amount) },
    { accessor: 'status', title: 'Status', sortable: true, render: (p) => <StatusBadge status={p.status} /> },
    {
      accessor: 'receipt',
      title: 'Receipt',
      render: (p) => (
        <Button
          size="xs"
          variant="subtle"
          onClick={() => downloadReceipt(p)}
          aria-label={`Download receipt ${p.receipt_no}`}
        >
          {p.receipt_no}
        </Button>
      ),
    },
  ];
  return (
    <DataTable
      label={label}
      records={records}
      columns={columns}
      loading={loading}
      error={error}
      serial={false}
      paged={paged}
      emptyText="No payments yet."
    />
  );
}
