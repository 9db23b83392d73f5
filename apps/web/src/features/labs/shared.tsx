import { Badge } from '@mantine/core';
import { VM_STATE_LABELS, VM_STATUS_LABELS, VM_USAGE_STATUS_LABELS } from '@trainlab/contract';

export interface VmRow {
  id: number;
  name: string;
  vm_name: string;
  image: string;
  protocol: string;
  zone: string;
  ram: number;
  storage: number;
  created: string;
  status: number;
  engine: string;
  assigned_user: { id: number; first_name: string; last_name: string; email: string } | null;
  assigned_at: string | null;
  last_activity_at: string | null;
}

export interface UsageRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  vm_start: string | null;
  vm_stop: string | null;
  used_min: number;
  cost: number;
  cost_paise: number;
  status: number;
  paid: number;
}

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
