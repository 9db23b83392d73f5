import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** A Yes/No confirmation before a destructive or important action. */
export function confirmAction(opts: {
  title: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: opts.title,
    children: <Text size="sm">{opts.message}</Text>,
    labels: { confirm: opts.confirmLabel ?? 'Yes', cancel: 'No' },
    confirmProps: { color: opts.danger ? 'red' : undefined },
    onConfirm: opts.onConfirm,
  });
}
