import '@mantine/dates/styles.css';
import { Alert, Checkbox, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { ApiRequest } from '../../api/call-types';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { pickerToIso, type TrainingRow } from './shared';
import { TrainingDetailFields } from './TrainingDetailFields';

interface EditValues extends Record<string, unknown> {
  name: string;
  start_date: string | null;
  end_date: string | null;
  total_training_day: number | string;
  number_of_participants: number | string;
  description: string;
  pre_assessment: boolean;
  post_assessment: boolean;
}

const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';

function valuesOf(t: TrainingRow): EditValues {
  return {
    name: t.name,
    start_date: dayjs(t.start_date).format(PICKER_FORMAT),
    end_date: dayjs(t.end_date).format(PICKER_FORMAT),
    total_training_day: t.total_training_day,
    number_of_participants: t.number_of_participants,
    description: t.description ?? '',
    pre_assessment: Boolean(t.pre_assessment),
    post_assessment: Boolean(t.post_assessment),
  };
}

/** The details as the API takes them, to send only those that changed. */
type Details = ReturnType<typeof details>;
const details = (v: EditValues) => ({
  name: v.name,
  start_date: pickerToIso(v.start_date),
  end_date: pickerToIso(v.end_date),
  total_training_day: v.total_training_day,
  number_of_participants: v.number_of_participants,
  description: v.description,
});

/**
 * Edit a training (/update-training, issue 32): its details while it has not started, and its pre- and
 * post-assessment at any time. Only what changed is sent; the server's refusals show under their
 * fields or at the top.
 */
export function EditTrainingForm({ training, onDone }: { training: TrainingRow; onDone: () => void }) {
  const client = useQueryClient();
  const started = training.status !== 0;
  const initial = valuesOf(training);
  const { form, onSubmit, otherError, submitting } = useApiForm<EditValues, 'update-training'>({
    path: 'update-training',
    initialValues: initial,
    toBody: (v) => {
      const changed: Partial<Details> = {};
      if (!started) {
        const [now, was] = [details(v), details(initial)];
        // one key at a time, so the typecheck pairs each detail with its own type
        const copy = <K extends keyof Details>(key: K) => {
          changed[key] = now[key];
        };
        for (const key of Object.keys(now) as (keyof Details)[]) {
          if (String(now[key]) !== String(was[key])) copy(key);
        }
      }
      const body: ApiRequest<'update-training'> = { slug: training.slug, ...changed };
      if (v.pre_assessment !== initial.pre_assessment) body.pre_assessment = v.pre_assessment ? 1 : 0;
      if (v.post_assessment !== initial.post_assessment) body.post_assessment = v.post_assessment ? 1 : 0;
      return body;
    },
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await Promise.all(
        ['all-trainings', 'get-training-details', 'get-dashboard-data'].map((k) =>
          client.invalidateQueries({ queryKey: [k] }),
        ),
      );
      onDone();
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <ErrorAlert message={otherError} />
        {started ? (
          <Alert color="gray" role="status">
            This training has started, so its details can no longer be changed. You can still switch on its pre- or
            post-assessment.
          </Alert>
        ) : (
          <TrainingDetailFields input={(field) => form.getInputProps(field)} />
        )}
        <Group gap="lg">
          <Checkbox label="Pre Assessment" {...form.getInputProps('pre_assessment', { type: 'checkbox' })} />
          <Checkbox label="Post Assessment" {...form.getInputProps('post_assessment', { type: 'checkbox' })} />
        </Group>
        <Text size="sm" c="dimmed">
          A test that is already built stays switched on. The cost is worked out again from the service prices.
        </Text>
        <FormActions onCancel={onDone} submitting={submitting} submitLabel="Save Changes" />
      </Stack>
    </form>
  );
}
