import '@mantine/dates/styles.css';
import { Button, Group, Paper, Rating, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconClipboardList, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { TOPIC_STATUS } from '@trainlab/contract';
import dayjs from 'dayjs';
import { Link, useNavigate, useParams } from 'react-router';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { ImportPanel } from '../../ui/ImportPanel';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { decodeId, encodeId } from '../../ui/url-id';
import { LabSchedule } from '../labs/lab-schedule';
import {
  type AttendanceRow,
  BackLink,
  formatDateTime,
  pickerProps,
  type SyllabusTopic,
  TopicStatusBadge,
  useRowAction,
} from './shared';

export function Stars({ value, label }: { value: number | null; label: string }) {
  if (value === null)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap">
      {/* read-only stars are one picture with a name, not a group of inputs */}
      <Rating value={value} fractions={10} readOnly size="sm" role="img" aria-label={label} />
      <Text size="xs" c="dimmed">
        {value.toFixed(1)}
      </Text>
    </Group>
  );
}

interface SyllabusTableProps {
  slug: string;
  /** managers may delete topics and open attendance; trainers only start and complete */
  manage: boolean;
  trainingId?: number;
}

/** The topics of a training with Start / Complete (and, for managers, Delete and Attendance). */
export function SyllabusTable({ slug, manage, trainingId }: SyllabusTableProps) {
  const q = useApiQuery('get-training-syllabus', { slug });
  const { run, busyKey } = useRowAction(['get-training-syllabus', 'all-trainings']);

  const start = async (s: SyllabusTopic) => {
    const done = await run(`${s.id}-status`, 'update-training-start-status', { id: s.id });
    if (done) window.open(`/conference/${slug}`, '_blank');
  };

  const columns: DataTableColumn<SyllabusTopic>[] = [
    { accessor: 'session_topic', title: 'Topic' },
    { accessor: 'start_time', title: 'Start', render: (s) => formatDateTime(s.start_time) },
    { accessor: 'end_time', title: 'End', render: (s) => formatDateTime(s.end_time) },
    { accessor: 'no_of_min', title: 'Minutes', textAlign: 'right' },
    {
      accessor: 'rating',
      title: 'Rating',
      render: (s) => <Stars value={s.rating} label={`Average rating of ${s.session_topic}`} />,
    },
    { accessor: 'status', title: 'Status', width: 130, render: (s) => <TopicStatusBadge status={s.status} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (s) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          {s.status === TOPIC_STATUS.schedule ? (
            <Button
              size="xs"
              color="green"
              leftSection={<IconPlayerPlay size={14} aria-hidden />}
              loading={busyKey === `${s.id}-status`}
              aria-label={`Start ${s.session_topic}`}
              onClick={() => void start(s)}
            >
              Start
            </Button>
          ) : null}
          {s.status === TOPIC_STATUS.starting ? (
            <Button
              size="xs"
              leftSection={<IconCheck size={14} aria-hidden />}
              loading={busyKey === `${s.id}-status`}
              aria-label={`Complete ${s.session_topic}`}
              onClick={() => void run(`${s.id}-status`, 'update-training-start-status', { id: s.id })}
            >
              Complete
            </Button>
          ) : null}
          {manage && s.status === TOPIC_STATUS.schedule ? (
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconTrash size={14} aria-hidden />}
              loading={busyKey === `${s.id}-delete`}
              aria-label={`Delete ${s.session_topic}`}
              onClick={() =>
                confirmAction({
                  title: 'Delete topic',
                  message: `Delete the topic "${s.session_topic}"?`,
                  danger: true,
                  onConfirm: () => void run(`${s.id}-delete`, 'delete-training-syllabus', { id: s.id }),
                })
              }
            >
              Delete
            </Button>
          ) : null}
          {manage && trainingId ? (
            <Tooltip label="Attendance">
              <RowLink
                to={`/training-attendance/${encodeId(trainingId)}`}
                label={`Attendance of ${s.session_topic}`}
                icon={<IconClipboardList size={14} aria-hidden />}
                secondary
              >
                Attendance
              </RowLink>
            </Tooltip>
          ) : null}
        </Group>
      ),
    },
  ];
  return (
    <DataTable label="Syllabus topics" records={q.data?.list} columns={columns} loading={q.isLoading} error={q.error} />
  );
}

/** /training-syllabus/:slug: the topics table with start, complete, delete and attendance. */
export function TrainingSyllabusPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const details = useApiQuery('get-training-details', { slug });
  const t = details.data?.success;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={t ? t.name : undefined}
        actions={
          <>
            <BackLink to="/all-trainings">Back to trainings</BackLink>
            <Button
              component={Link}
              to={`/add-training-syllabus/${slug}`}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              Add Topic
            </Button>
          </>
        }
      />
      <SyllabusTable slug={slug} manage trainingId={t?.id} />
      <LabSchedule slug={slug} />
    </Stack>
  );
}

interface TopicValues extends Record<string, unknown> {
  topic_name: string;
  start_time: string | null;
  end_time: string | null;
}

/** /add-training-syllabus/:slug: Excel import plus one topic by hand. */
export function AddTrainingSyllabusPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const back = `/training-syllabus/${slug}`;
  const { form, onSubmit, otherError, submitting } = useApiForm<TopicValues, 'add-training-syllabus'>({
    path: 'add-training-syllabus',
    initialValues: { topic_name: '', start_time: null, end_time: null },
    validate: {
      end_time: (v, values) =>
        v && values.start_time && dayjs(v).isBefore(dayjs(values.start_time))
          ? 'The end time must be a date after or equal to start time.'
          : null,
    },
    toBody: (v) => ({
      slug,
      topic_name: v.topic_name,
      start_time: v.start_time ? dayjs(v.start_time).toISOString() : null,
      end_time: v.end_time ? dayjs(v.end_time).toISOString() : null,
    }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['get-training-syllabus'] });
      navigate(back);
    },
  });
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to={back}>Back to syllabus</BackLink>} />
      <ImportPanel
        title="Import topics from Excel"
        path="upload-training-syllabus"
        fields={{ slug }}
        templateType="training-syllabus"
        onImported={() => {
          void client.invalidateQueries({ queryKey: ['get-training-syllabus'] });
          navigate(back);
        }}
      />
      <Paper withBorder radius="md" p="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Add a single topic
            </Title>
            <ErrorAlert message={otherError} />
            <TextInput label="Topic Name" withAsterisk {...form.getInputProps('topic_name')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateTimePicker
                label="Start Time"
                {...pickerProps('Start Time')}
                placeholder="Optional"
                valueFormat="DD MMM YYYY hh:mm A"
                clearable
                {...form.getInputProps('start_time')}
              />
              <DateTimePicker
                label="End Time"
                {...pickerProps('End Time')}
                placeholder="Optional"
                valueFormat="DD MMM YYYY hh:mm A"
                clearable
                {...form.getInputProps('end_time')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={submitting} leftSection={<IconPlus size={16} aria-hidden />}>
                Add Topic
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/** /training-attendance/:id (base64 training id): who joined which topic, when, and their rating. */
export function TrainingAttendancePage() {
  const title = useRouteTitle();
  const { id: raw } = useParams();
  const id = decodeId(raw);
  const q = useApiQuery('training-attendances-details', { id }, { enabled: id !== null });
  const columns: DataTableColumn<AttendanceRow>[] = [
    { accessor: 'first_name', title: 'First Name' },
    { accessor: 'last_name', title: 'Last Name' },
    { accessor: 'session_topic', title: 'Topic' },
    { accessor: 'start_time', title: 'Join time', render: (a) => formatDateTime(a.start_time) },
    { accessor: 'end_time', title: 'Leave time', render: (a) => formatDateTime(a.end_time) },
    // measured by the server from the meeting connection (0 while still in the session)
    { accessor: 'minutes', title: 'Minutes', textAlign: 'right' },
    {
      accessor: 'rating',
      title: 'Rating',
      render: (a) => <Stars value={a.rating} label={`Rating by ${a.first_name} ${a.last_name}`} />,
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to="/all-trainings">Back to trainings</BackLink>} />
      {id === null ? (
        <ErrorAlert message="This attendance link is not valid." />
      ) : (
        <DataTable
          label="Attendance"
          records={q.data?.list}
          idAccessor={(a) => `${a.user_id}-${a.session_topic}-${a.start_time}`}
          columns={columns}
          loading={q.isLoading}
          error={q.error}
          searchOn={['first_name', 'last_name', 'session_topic']}
        />
      )}
    </Stack>
  );
}
