import { Grid, NativeSelect, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { DURATION_TYPES, MSG, TRAINING_COURSE_LEVELS } from '@trainlab/contract';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { placeholder } from './select-placeholder';
import { required } from './shared';

/** The 'Add New Course' popup's form: a course with category, level and duration; `onDone` gets its id. */
export function CourseModalForm({ onDone }: { onDone: (id?: number) => void }) {
  const client = useQueryClient();
  const categories = useApiQuery('category-list');
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'create-training-course',
    initialValues: { name: '', category: '', level: '', duration: '', duration_type: '', price: '' },
    validate: {
      name: required('name'),
      category: required('category'),
      level: required('level'),
      duration: required('duration'),
      duration_type: required('duration type'),
      price: required('price'),
    },
    toBody: (v) => ({ ...v, name: v.name.trim(), category: Number(v.category) }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
      await client.invalidateQueries({ queryKey: ['get-all-training-course-list'] });
      await client.invalidateQueries({ queryKey: ['training-course-list'] });
      onDone(data.id);
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError ?? (categories.error ? errorText(categories.error) : null)} />
      <Grid>
        <Grid.Col span={12}>
          <TextInput label="Course name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Category"
            withAsterisk
            data={[
              placeholder('Category', categories.isLoading),
              ...(categories.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            {...form.getInputProps('category')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Level"
            withAsterisk
            data={[placeholder('Level'), ...TRAINING_COURSE_LEVELS]}
            {...form.getInputProps('level')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Duration" withAsterisk inputMode="decimal" {...form.getInputProps('duration')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Duration type"
            withAsterisk
            data={[placeholder('Duration type'), ...DURATION_TYPES]}
            {...form.getInputProps('duration_type')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Price" withAsterisk inputMode="decimal" {...form.getInputProps('price')} />
        </Grid.Col>
      </Grid>
      <FormActions onCancel={() => onDone()} submitting={submitting} mt="md" />
    </form>
  );
}
