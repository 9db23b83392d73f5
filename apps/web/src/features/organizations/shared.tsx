import { Badge } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { confirmAction } from '../../ui/confirm';

export const required = (name: string) => (v: unknown) =>
  String(v ?? '').trim() ? null : `The ${name} field is required.`;

export function YesNoBadge({ value }: { value: number | boolean }) {
  return value ? (
    <Badge color="green" variant="light">
      Yes
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      No
    </Badge>
  );
}

export function ActiveBadge({ status }: { status: number }) {
  return status === 1 ? (
    <Badge color="green" variant="light">
      Active
    </Badge>
  ) : (
    <Badge color="red" variant="light">
      Inactive
    </Badge>
  );
}

interface DecisionOptions {
  path: string;
  /** read calls to refresh afterwards */
  invalidates: string[];
  /** where to go after success (none: stay and reload) */
  goTo?: string;
}

/**
 * A confirmed write from a row button (accept/reject, yes/no, activate/deactivate): asks first,
 * shows the server message as a toast (errors in red), refreshes the lists, then optionally leaves.
 */
export function useDecision({ path, invalidates, goTo }: DecisionOptions) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [busyKey, setBusyKey] = useState<string | null>(null);

  function run(
    key: string,
    body: Record<string, unknown>,
    confirm: { title: string; message: string; danger?: boolean },
  ) {
    confirmAction({
      ...confirm,
      onConfirm: async () => {
        setBusyKey(key);
        try {
          const res = await apiPost<{ message?: string }>(path, body);
          notifications.show({ color: 'green', message: res?.message ?? 'Done' });
          await Promise.all(invalidates.map((p) => client.invalidateQueries({ queryKey: [p] })));
          if (goTo) navigate(goTo);
        } catch (error) {
          notifications.show({ color: 'red', message: errorText(error) });
        } finally {
          setBusyKey(null);
        }
      },
    });
  }
  return { run, busyKey };
}
