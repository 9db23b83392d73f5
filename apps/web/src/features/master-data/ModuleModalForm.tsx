import { Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { required } from './shared';

/** The 'Add New Module' popup's form: a module of `course`; `onDone` gets its id. */
export function ModuleModalForm({ course, onDone }: { course: number; onDone: (id?: number) => void }) {
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'create-training-module',
    initialValues: { name: '', price: '', duration: '' },
    validate: { name: required('name'), price: required('price'), duration: required('duration') },
    toBody: (v) => ({ ...v, name: v.name.trim(), course }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
      await client.invalidateQueries({ queryKey: ['training-module-list'] });
      await client.invalidateQueries({ queryKey: ['training-course-list'] });
      onDone(data.id);
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError} />
      <Stack gap="sm">
        <TextInput label="Module name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Group grow align="flex-start">
          <TextInput label="Price" withAsterisk inputMode="decimal" {...form.getInputProps('price')} />
          <TextInput label="Duration" withAsterisk inputMode="decimal" {...form.getInputProps('duration')} />
        </Group>
        <FormActions onCancel={() => onDone()} submitting={submitting} />
      </Stack>
    </form>
  );
}
