import { Badge } from '@mantine/core';
import { VM_STATE_LABELS, VM_STATUS_LABELS, VM_USAGE_STATUS_LABELS } from '@trainlab/contract';
import type { ApiAnswer, ListRow } from '../../api/call-types';

export type VmRow = ListRow<'vm-list'>;
/** One run of a lab, as /vm-details lists them. */
export type UsageRow = ApiAnswer<'vm-details'>['usage'][number];

const STATUS_COLORS = ['blue', 'green', 'orange', 'red'];
/** A lab's state as a person reads it (Running, Stopped, Not started); the spec's status name in its title. */
export function VmStatusBadge({ status }: { status: number }) {
  return (
    // the whole word, never 'NOT S…': a status badge does not shrink in a narrow column
    <Badge
      color={STATUS_COLORS[status] ?? 'gray'}
      variant="light"
      tt="none"
      title={VM_STATUS_LABELS[status] ? `Status ${status} (${VM_STATUS_LABELS[status]})` : undefined}
      style={{ flexShrink: 0, overflow: 'visible' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {VM_STATE_LABELS[status] ?? status}
    </Badge>
  );
}
export const usageLabel = (status: number) => VM_USAGE_STATUS_LABELS[status] ?? String(status);

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export { formatInr, formatPrice } from '../../ui/money';
