import { Badge } from '@mantine/core';
import { PAYMENT_STATUS_LABEL } from '@trainlab/contract';
import { apiDownload } from '../../api/upload';

/** The PDF receipt of one of the caller's payments, saved as receipt-<no>.pdf. */
export const downloadReceipt = (p: { id: number; receipt_no: string }) =>
  apiDownload('payment-receipt', { id: p.id }, `receipt-${p.receipt_no}.pdf`);

const statusColor: Record<number, string> = { 1: 'green', 2: 'red', 3: 'yellow' };
export const StatusBadge = ({ status }: { status: number }) => (
  <Badge color={statusColor[status] ?? 'gray'} variant="light">
    {PAYMENT_STATUS_LABEL[status] ?? status}
  </Badge>
);
