import '@mantine/dates/styles.css';
import { Button, Group, MultiSelect, Paper, Progress, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import dayjs from 'dayjs';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { ListRow } from '../../api/call-types';
import { ApiError, apiPost } from '../../api/client';
import { mapApiError } from '../../api/errors';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { pickerProps } from '../trainings/shared';

/** /course/assign-to-users/{slug}: pick learners, start and end date; success goes to /all-courses. */
export function AssignCoursePage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const { slug = '' } = useParams();
  const course = useApiQuery('get-course-details', { slug });
  const users = useApiQuery('get-lp-or-org-users');
  const [now] = useState(() => new Date());
  const [start, setStart] = useState<string | null>(dayjs(now).format('YYYY-MM-DD HH:mm:ss'));
  const [end, setEnd] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!picked.length) local.userIds = 'The user ids field is required.';
    if (!start) local.start_date = 'The start date field is required.';
    else if (dayjs(start).isBefore(dayjs().subtract(1, 'minute')))
      local.start_date = 'The start date must be a date after or equal to now.';
    if (!end) local.end_date = 'The end date field is required.';
    else if (start && dayjs(end).isBefore(dayjs(start)))
      local.end_date = 'The end date must be a date after or equal to start date.';
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const res = await apiPost('assign-course-to-user', {
        slug,
        start_date: dayjs(start).toISOString(),
        end_date: dayjs(end).toISOString(),
        userIds: picked.map(Number),
      });
      notifications.show({ color: 'green', message: res.message });
      navigate('/all-courses');
    } catch (err) {
      const m = err instanceof ApiError ? mapApiError(err.status, err.body) : mapApiError(0, null);
      setErrors(m.fields);
      setOther(m.other_error);
    } finally {
      setBusy(false);
    }
  };

  if (course.isLoading || users.isLoading) return <LoadingLines />;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={course.data ? `Course: ${course.data.success.name}` : undefined}
        actions={<BackLink to="/all-courses">All courses</BackLink>}
      />
      <Paper withBorder radius="md" p="md" component="form" onSubmit={submit} noValidate>
        <Stack gap="md" maw={560}>
          <ErrorAlert message={other ?? (course.error ? 'The course could not be loaded.' : null)} />
          <MultiSelect
            label="Users"
            required
            searchable
            data={(users.data?.list ?? []).map((u) => ({
              value: String(u.id),
              label: `${u.first_name} ${u.last_name} (${u.email})`,
            }))}
            value={picked}
            onChange={setPicked}
            error={errors.userIds}
            nothingFoundMessage="No Data Found"
          />
          <DateTimePicker
            label="Start date"
            required
            minDate={now}
            value={start}
            onChange={setStart}
            error={errors.start_date}
            {...pickerProps('Start date')}
          />
          <DateTimePicker
            label="End date"
            required
            minDate={start ? new Date(start) : now}
            value={end}
            onChange={setEnd}
            error={errors.end_date}
            {...pickerProps('End date')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Assign
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

type CourseUser = ListRow<'get-course-users-list'>;

const date = (v: string | null) => (v ? dayjs(v).format('DD MMM YYYY HH:mm') : '—');

/** /course/assign-users-list/{slug}: each learner's window, progress and completion. */
export function CourseUsersPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const course = useApiQuery('get-course-details', { slug });
  const { list, query } = usePagedQuery('get-course-users-list', { slug });
  const columns: DataTableColumn<CourseUser>[] = [
    { accessor: 'first_name', title: 'Name', sortable: true, render: (u) => `${u.first_name} ${u.last_name}` },
    { accessor: 'email', title: 'Email', sortable: true },
    { accessor: 'start_date', title: 'Start Date', sortable: true, render: (u) => date(u.start_date) },
    { accessor: 'end_date', title: 'End Date', render: (u) => date(u.end_date) },
    {
      accessor: 'percentage',
      title: 'Progress',
      render: (u) => (
        <Group gap="xs" wrap="nowrap">
          <Progress value={u.percentage} w={100} aria-label={`Progress of ${u.first_name} ${u.last_name}`} />
          <Text size="sm">{u.percentage}%</Text>
        </Group>
      ),
    },
    { accessor: 'is_complete', title: 'Status', render: (u) => (u.is_complete ? 'Completed' : 'Incomplete') },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={course.data ? `Course: ${course.data.success.name}` : undefined}
        actions={<BackLink to="/all-courses">All courses</BackLink>}
      />
      <DataTable
        label="Course users"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={columns}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
