import { NativeSelect } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';

/** The accommodations offered: percent of each test's time added for one learner. */
const OPTIONS = [
  { value: '0', label: 'None' },
  { value: '25', label: '+25%' },
  { value: '50', label: '+50% (time and a half)' },
  { value: '100', label: '+100% (double time)' },
  { value: '200', label: '+200% (triple time)' },
];

/** The training's extra-time rows, by learner id (one page of the most a table shows). */
export function useExtraTime(slug: string) {
  const q = useApiQuery('get-assessment-time-extensions', { slug, per_page: 100 });
  return new Map((q.data?.list ?? []).map((e) => [e.user_id, e.extra_percent]));
}

/** Extra time on the training's tests for one learner; applies to attempts started afterwards. */
export function ExtraTimeSelect({
  slug,
  userId,
  name,
  value,
}: {
  slug: string;
  userId: number;
  name: string;
  value: number;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const options = OPTIONS.some((o) => o.value === String(value))
    ? OPTIONS
    : [...OPTIONS, { value: String(value), label: `+${value}%` }];
  const change = async (next: string) => {
    setBusy(true);
    try {
      await apiPost('set-assessment-time-extension', { slug, user_id: userId, extra_percent: Number(next) });
      await client.invalidateQueries({ queryKey: ['get-assessment-time-extensions'] });
      notifications.show({ color: 'green', message: `Extra time for ${name} saved.` });
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <NativeSelect
      aria-label={`Extra time for ${name}`}
      size="xs"
      data={options}
      value={String(value)}
      disabled={busy}
      onChange={(e) => void change(e.currentTarget.value)}
    />
  );
}
