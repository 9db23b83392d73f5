import { Badge } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { attendanceRow, syllabusTopic, trainerItem, trainingRow, trainingUserRow } from '@trainlab/contract';
import { TOPIC_STATUS_LABELS } from '@trainlab/contract';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { z } from 'zod';
import type { ApiAnswer, ApiPath, ApiRequest, SendCall } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';

export type TrainingRow = z.infer<typeof trainingRow>;

/** A date picker's value as the API takes it ('' when empty). */
export const pickerToIso = (v: string | null) => (v ? dayjs(v).toISOString() : '');
export type TrainingUserRow = z.infer<typeof trainingUserRow>;
export type SyllabusTopic = z.infer<typeof syllabusTopic>;
export type AttendanceRow = z.infer<typeof attendanceRow>;
export type TrainerItem = z.infer<typeof trainerItem>;

/** A readable local date-time ('21 Nov 2026, 09:30 AM'); '—' when absent. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const d = dayjs(value);
  return d.isValid() ? d.format('DD MMM YYYY, hh:mm A') : value;
}

/**
 * Spec 01 §9: attended minutes are shown as whole hours only when above 60, otherwise 0
 * (130 → '2 hr', 60 → '0', 45 → '0').
 */
export function minutesLabel(min: number): string {
  return min > 60 ? `${Math.floor(min / 60)} hr` : '0';
}

/** The text copied by 'Copy meeting link' / 'Share link': a greeting plus the public conference URL. */
export function trainingInvite(training: Pick<TrainingRow, 'name' | 'link'>, origin = window.location.origin): string {
  return `Hello,\nYou are invited to join the live training "${training.name}".\nJoin here: ${origin}/public/conference/${training.link}`;
}

export function PublicBadge({ value }: { value: number }) {
  return value === 1 ? (
    <Badge color="green" variant="light">
      Public
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      Not Public
    </Badge>
  );
}

const TOPIC_COLORS = ['blue', 'orange', 'green'] as const;
export function TopicStatusBadge({ status }: { status: number }) {
  return (
    <Badge color={TOPIC_COLORS[status] ?? 'gray'} variant="light">
      {TOPIC_STATUS_LABELS[status] ?? String(status)}
    </Badge>
  );
}

export function JoinBadge({ join }: { join: number }) {
  return join ? (
    <Badge color="green" variant="light">
      Joined
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      Not joined
    </Badge>
  );
}

export { BackLink } from '../../ui/BackLink';

/**
 * A write from a row action: shows the server message as a toast (errors in red), refreshes the
 * given lists and reports which row is busy.
 */
export function useRowAction(invalidates: ApiPath[]) {
  const client = useQueryClient();
  const [busyKey, setBusyKey] = useState<string | null>(null);
  async function run<P extends ApiPath>(key: string, path: P, body: ApiRequest<P>): Promise<ApiAnswer<P> | null> {
    setBusyKey(key);
    try {
      // the signature has checked the body against the call; every row action answers its message
      const data = (await (apiPost as SendCall)(path, body)) as ApiAnswer<P> & { message?: string };
      if (data?.message) notifications.show({ color: 'green', message: data.message });
      await Promise.all(invalidates.map((p) => client.invalidateQueries({ queryKey: [p] })));
      return data;
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
      return null;
    } finally {
      setBusyKey(null);
    }
  }
  return { run, busyKey };
}

/** Accessible names inside the DateTimePicker dropdown (time fields and the confirm button). */
export const pickerProps = (label: string) => ({
  timePickerProps: {
    hoursInputLabel: `${label} hours`,
    minutesInputLabel: `${label} minutes`,
  },
  submitButtonProps: { 'aria-label': `Confirm ${label}` },
});
