import { Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { apiPost, toFormErrors } from '../../api/client';
import { FormActions } from '../../ui/FormActions';

/** The 'Add New' popup of a module. */
export function NewModuleModal({
  courseId,
  opened,
  onClose,
  onCreated,
}: {
  courseId: number | null;
  opened: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('The name field is required.');
    setBusy(true);
    try {
      const res = await apiPost('create-module', { course_id: courseId, name });
      notifications.show({ color: 'green', message: res.message });
      setName('');
      setError(undefined);
      onCreated(res.id);
    } catch (err) {
      const m = toFormErrors(err);
      setError(m.fields.name ?? m.fields.course_id ?? m.other_error ?? undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add New Module">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Module Name"
            required
            value={name}
            error={error}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <FormActions submitting={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
