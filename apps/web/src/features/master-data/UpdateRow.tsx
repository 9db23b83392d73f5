import { Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import type { FormEvent, ReactNode } from 'react';
import type { DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { IconAction } from './shared';

/**
 * What a row's update form does once saved: the server's message (or "record updated") as a toast,
 * the list under `queryKey` read again, then `onDone` (which closes the modal).
 */
export function useRowUpdated(queryKey: string, onDone: () => void) {
  const client = useQueryClient();
  return async (data: { message: string }) => {
    notifications.show({ color: 'green', message: data.message || MSG.recordUpdated });
    await client.invalidateQueries({ queryKey: [queryKey] });
    onDone();
  };
}

/** A row's update form in its modal: an error of no one field on top, the fields, then Cancel and Update. */
export function UpdateRowForm({
  onSubmit,
  otherError,
  submitting,
  onCancel,
  children,
}: {
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  otherError: string | null;
  submitting: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError} />
      <Stack gap="sm">
        {children}
        <FormActions onCancel={onCancel} submitting={submitting} submitLabel="Update" />
      </Stack>
    </form>
  );
}

/** The Action column of a list whose rows are updated in a modal: one edit icon, named by `label`. */
export function updateRowColumn<T>(label: (row: T) => string, onEdit: (row: T) => void): DataTableColumn<T> {
  return {
    accessor: 'actions',
    title: 'Action',
    textAlign: 'right',
    render: (r) => (
      <Group justify="flex-end">
        <IconAction label={label(r)} onClick={() => onEdit(r)}>
          <IconEdit size={16} aria-hidden />
        </IconAction>
      </Group>
    ),
  };
}
