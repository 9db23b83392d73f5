import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconCalendarEvent,
  IconCalendarTime,
  IconChecks,
  IconListDetails,
  IconPlus,
  IconUsers,
} from '@tabler/icons-react';
import type { dashboardItem } from '@trainlab/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { LazyDashboardCharts } from '../dashboards/LazyDashboardCharts';
import { SyllabusTable } from './SyllabusPages';
import { formatDateTime, type TrainingRow } from './shared';

type DashboardItem = z.infer<typeof dashboardItem>;
function StatCard({ label, value, icon }: { label: string; value: number | undefined; icon: React.ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={2}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text fw={700} size="xl" aria-label={label}>
            {value ?? '—'}
          </Text>
        </Stack>
        <ThemeIcon variant="light" size="xl" radius="md" aria-hidden>
          {icon}
        </ThemeIcon>
      </Group>
    </Paper>
  );
}

/** /learning-provider: the provider dashboard (counts, upcoming trainings, quick links). */
export function ProviderDashboardPage() {
  const title = useRouteTitle();
  const q = useApiQuery('get-dashboard-data');
  const d = q.data;
  const columns: DataTableColumn<DashboardItem>[] = [
    { accessor: 'name', title: 'Name' },
    { accessor: 'start_date', title: 'Start Date', render: (t) => formatDateTime(t.start_date) },
    { accessor: 'end_date', title: 'End Date', render: (t) => formatDateTime(t.end_date) },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (t) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <RowLink to={`/show-training-users/${t.slug}`} label={`Users of ${t.name}`}>
            Users
          </RowLink>
          <RowLink to={`/training-syllabus/${t.slug}`} label={`Syllabus of ${t.name}`} secondary>
            Syllabus
          </RowLink>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Your live trainings at a glance."
        actions={
          <>
            <Button variant="light" component={Link} to="/all-trainings">
              Upcoming Trainings
            </Button>
            <Button component={Link} to="/create-training" leftSection={<IconPlus size={16} aria-hidden />}>
              Create Training
            </Button>
          </>
        }
      />
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <StatCard label="Total Trainings" value={d?.total_trainings} icon={<IconCalendarEvent size={22} />} />
        <StatCard label="Upcoming Trainings" value={d?.upcoming_trainings} icon={<IconCalendarTime size={22} />} />
        <StatCard label="Completed Trainings" value={d?.completed_trainings} icon={<IconChecks size={22} />} />
        <StatCard label="Total Participants" value={d?.total_participants} icon={<IconUsers size={22} />} />
      </SimpleGrid>
      <LazyDashboardCharts audience="tenant" />
      <Text fw={600}>Upcoming trainings</Text>
      <DataTable label="Upcoming trainings" records={d?.list} columns={columns} loading={q.isLoading} />
    </Stack>
  );
}

/** /trainer/assigned-trainings: the calling trainer's trainings, the syllabus in a dialog. */
export function TrainerAssignedTrainingsPage() {
  const title = useRouteTitle();
  const q = useApiQuery('trainer/assigned-trainings');
  const [open, setOpen] = useState<TrainingRow | null>(null);
  const columns: DataTableColumn<TrainingRow>[] = [
    { accessor: 'name', title: 'Name' },
    { accessor: 'start_date', title: 'Start Date', render: (t) => formatDateTime(t.start_date) },
    { accessor: 'end_date', title: 'End Date', render: (t) => formatDateTime(t.end_date) },
    { accessor: 'totalTopics', title: 'Topics', textAlign: 'right' },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (t) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconListDetails size={14} aria-hidden />}
          aria-label={`View syllabus of ${t.name}`}
          onClick={() => setOpen(t)}
        >
          Syllabus
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Trainings you are assigned to." />
      <DataTable
        label="Assigned trainings"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        searchOn={['name']}
      />
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title={open ? `Syllabus: ${open.name}` : ''}
        size="80rem"
      >
        {open ? <SyllabusTable slug={open.slug} manage={false} /> : null}
      </Modal>
    </Stack>
  );
}
