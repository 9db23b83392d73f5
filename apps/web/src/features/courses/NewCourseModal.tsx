import { Checkbox, Modal, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { apiPost, toFormErrors } from '../../api/client';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';

/** The 'Add New' popup of a course. */
export function NewCourseModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [values, setValues] = useState({
    name: '',
    amount: '' as number | string,
    is_paid: false,
    is_public: false,
    description: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!values.name.trim()) local.name = 'The name field is required.';
    if (values.amount === '') local.amount = 'The amount field is required.';
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const res = await apiPost('create-course', {
        ...values,
        is_paid: values.is_paid ? 1 : 0,
        is_public: values.is_public ? 1 : 0,
      });
      notifications.show({ color: 'green', message: res.message });
      setValues({ name: '', amount: '', is_paid: false, is_public: false, description: '' });
      onCreated(res.id);
    } catch (err) {
      const m = toFormErrors(err);
      setErrors(m.fields);
      setOther(m.other_error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add New Course">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <ErrorAlert message={other} />
          <TextInput
            label="Course Name"
            required
            value={values.name}
            error={errors.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
          />
          <NumberInput
            label="Course Amount"
            required
            min={0}
            decimalScale={2}
            value={values.amount}
            error={errors.amount}
            onChange={(v) => setValues({ ...values, amount: v })}
          />
          <Checkbox
            label="Paid course"
            checked={values.is_paid}
            error={errors.is_paid}
            onChange={(e) => setValues({ ...values, is_paid: e.currentTarget.checked })}
          />
          <Checkbox
            label="Public (in the catalogue)"
            checked={values.is_public}
            error={errors.is_public}
            onChange={(e) => setValues({ ...values, is_public: e.currentTarget.checked })}
          />
          <Textarea
            label="Description"
            value={values.description}
            error={errors.description}
            onChange={(e) => setValues({ ...values, description: e.currentTarget.value })}
          />
          <FormActions submitting={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
