import { Badge } from '@mantine/core';
import { VM_STATUS_LABELS, VM_USAGE_STATUS_LABELS } from '@trainlab/contract';

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

const STATUS_COLORS = ['gray', 'green', 'orange', 'red'];
export function VmStatusBadge({ status }: { status: number }) {
  return (
    // the whole word, never 'CREA…': a status badge does not shrink in a narrow column
    <Badge
      color={STATUS_COLORS[status] ?? 'gray'}
      variant="light"
      style={{ flexShrink: 0, overflow: 'visible' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {VM_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}
export const usageLabel = (status: number) => VM_USAGE_STATUS_LABELS[status] ?? String(status);

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
export const formatInr = (rupees: number) => inr.format(rupees);
