import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarTime, IconLinkOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { LAB_SCHEDULE_LIMITS } from '@trainlab/contract';
import { useState } from 'react';
import type { ListRow } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { formatDateTime } from './shared';

/** A lab (or the learners' labs) tied to the training, with its next start and stop. */
export type ScheduleRow = ListRow<'training-lab-schedules'>;
type ScheduleEvent = ScheduleRow['last_event'];

/** the select's value for "the labs assigned to the training's learners" */
const LEARNERS = '__learners__';

const lastText = (e: ScheduleEvent | null) =>
  !e
    ? 'Nothing yet'
    : `${e.action === 'start' ? 'Started' : 'Stopped'} ${e.vm_name} for ${e.topic}, ${formatDateTime(e.at)}${
        e.outcome ? ` — refused: ${e.outcome}` : ''
      }`;

/**
 * Labs on the training's schedule: started the lead time before each session topic and stopped
 * the grace time after it ends, by the server.
 */
export default function LabSchedulePanel({ slug }: { slug: string }) {
  const client = useQueryClient();
  const q = useApiQuery('training-lab-schedules', { slug });
  const labs = useApiQuery('vm-list', { per_page: 100 });
  const [untieError, setUntieError] = useState<string | null>(null);
  const [untying, setUntying] = useState<number | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['training-lab-schedules'] });
  const tie = useApiForm<
    { vm_name: string; lead_minutes: number | string; grace_minutes: number | string },
    'tie-lab-to-training'
  >({
    path: 'tie-lab-to-training',
    initialValues: { vm_name: LEARNERS, lead_minutes: '', grace_minutes: LAB_SCHEDULE_LIMITS.defaultGrace },
    toBody: (v) => ({ ...v, slug, vm_name: v.vm_name === LEARNERS ? '' : v.vm_name }),
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message });
      tie.form.reset();
      void refresh();
    },
  });
  const lead = useApiForm<{ lead_minutes: number | string }, 'update-lab-schedule-lead'>({
    path: 'update-lab-schedule-lead',
    initialValues: { lead_minutes: '' },
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message });
      lead.form.reset();
      void refresh();
    },
  });
  const untie = async (row: ScheduleRow) => {
    setUntieError(null);
    setUntying(row.id);
    try {
      const res = await apiPost('untie-lab-from-training', { id: row.id });
      notifications.show({ color: 'green', message: res.message });
      await refresh();
    } catch (e) {
      setUntieError(errorText(e));
    } finally {
      setUntying(null);
    }
  };
  const options = [
    { value: LEARNERS, label: 'Labs of the training’s learners' },
    ...(labs.data?.list ?? []).map((v) => ({ value: v.vm_name, label: `${v.name} (${v.vm_name})` })),
  ];
  const rows = q.data?.list ?? [];

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="lab-schedule-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="lab-schedule-title">
          Labs on this training’s schedule
        </Title>
        <Text size="sm" c="dimmed">
          Tied labs start before each session topic and stop after it ends.
          {q.data ? ` Default lead time: ${q.data.lead_minutes_default} minutes.` : ''}
        </Text>
        {q.isLoading ? (
          <LoadingLines lines={2} />
        ) : q.error ? (
          <ErrorAlert message={errorText(q.error)} />
        ) : rows.length ? (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Tied labs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Lab</Table.Th>
                  <Table.Th>Lead</Table.Th>
                  <Table.Th>Grace</Table.Th>
                  <Table.Th>Next start</Table.Th>
                  <Table.Th>Next stop</Table.Th>
                  <Table.Th>Last</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => {
                  const label = r.vm_name ? `${r.name} (${r.vm_name})` : `Labs of the training’s learners (${r.labs})`;
                  return (
                    <Table.Tr key={r.id} data-testid="lab-schedule-row">
                      <Table.Td>{label}</Table.Td>
                      <Table.Td>
                        {r.lead_in_force} min{r.lead_minutes == null ? ' (default)' : ''}
                      </Table.Td>
                      <Table.Td>{r.grace_minutes} min</Table.Td>
                      <Table.Td>{formatDateTime(r.next_start)}</Table.Td>
                      <Table.Td>{formatDateTime(r.next_stop)}</Table.Td>
                      <Table.Td>{lastText(r.last_event)}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          leftSection={<IconLinkOff size={14} aria-hidden />}
                          loading={untying === r.id}
                          onClick={() => void untie(r)}
                          aria-label={`Untie ${label}`}
                        >
                          Untie
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm">No lab is tied to this training.</Text>
        )}
        <ErrorAlert message={untieError} />
        <form onSubmit={tie.onSubmit} noValidate aria-label="Tie a lab">
          <Stack gap="xs">
            <ErrorAlert message={tie.otherError} />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label="Lab"
                data={options}
                allowDeselect={false}
                error={labs.error ? errorText(labs.error) : undefined}
                {...tie.form.getInputProps('vm_name')}
              />
              <NumberInput
                label="Lead time (minutes)"
                description="Empty: the default"
                min={0}
                max={LAB_SCHEDULE_LIMITS.maxLead}
                allowDecimal={false}
                {...tie.form.getInputProps('lead_minutes')}
              />
              <NumberInput
                label="Grace after the topic (minutes)"
                min={0}
                max={LAB_SCHEDULE_LIMITS.maxGrace}
                allowDecimal={false}
                {...tie.form.getInputProps('grace_minutes')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={tie.submitting} leftSection={<IconCalendarTime size={16} aria-hidden />}>
                Tie to schedule
              </Button>
            </Group>
          </Stack>
        </form>
        <form onSubmit={lead.onSubmit} noValidate aria-label="Default lead time">
          <Group align="flex-end" gap="xs">
            <NumberInput
              label="Default lead time (minutes)"
              min={0}
              max={LAB_SCHEDULE_LIMITS.maxLead}
              allowDecimal={false}
              {...lead.form.getInputProps('lead_minutes')}
            />
            <Button type="submit" variant="default" loading={lead.submitting}>
              Save default
            </Button>
          </Group>
          <ErrorAlert message={lead.otherError} />
        </form>
      </Stack>
    </Paper>
  );
}
