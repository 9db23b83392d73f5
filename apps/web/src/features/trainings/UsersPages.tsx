import { Button, Group, MultiSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { ImportPanel } from '../../ui/ImportPanel';
import { LearnerPicker } from '../../ui/LearnerPicker';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { BackLink, formatDateTime, JoinBadge, type TrainingUserRow } from './shared';

/** The training a page of its users is about, by name (issue 41: "Add Training User" did not say which). */
function useTrainingTitle(title: string, slug: string) {
  const details = useApiQuery('get-training-details', { slug });
  return details.data ? `${title}: ${details.data.success.name}` : title;
}

/** /add-training-user/:slug: Excel import plus one learner by hand (spec 01 §5). */
export function AddTrainingUserPage() {
  const { slug = '' } = useParams();
  const title = useTrainingTitle(useRouteTitle(), slug);
  const navigate = useNavigate();
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm<
    { first_name: string; last_name: string; mobile_no: string; email: string },
    'lp/add-training-user'
  >({
    path: 'lp/add-training-user',
    initialValues: { first_name: '', last_name: '', mobile_no: '', email: '' },
    toBody: (v) => ({ ...v, slug }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['lp/get-training-users'] });
      navigate(`/show-training-users/${slug}`);
    },
  });
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <>
            <BackLink to="/all-trainings">Back to trainings</BackLink>
            <Button variant="light" component={Link} to={`/show-training-users/${slug}`}>
              View users
            </Button>
          </>
        }
      />
      <ImportPanel
        title="Import users from Excel"
        path="lp/import-training-user"
        fields={{ slug }}
        templateType="training-user"
        onImported={() => {
          void client.invalidateQueries({ queryKey: ['lp/get-training-users'] });
          navigate(`/show-training-users/${slug}`);
        }}
      />
      <Paper withBorder radius="md" p="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Add a single user
            </Title>
            <ErrorAlert message={otherError} />
            <LearnerPicker
              onPick={(l) =>
                form.setValues({
                  first_name: l.first_name,
                  last_name: l.last_name,
                  email: l.email,
                  mobile_no: l.mobile_no,
                })
              }
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
              <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
              <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
              <TextInput label="Mobile No" type="tel" withAsterisk {...form.getInputProps('mobile_no')} />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={submitting} leftSection={<IconUserPlus size={16} aria-hidden />}>
                Add User
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/** /show-training-users/:slug: the learners of a training. */
export function ShowTrainingUsersPage() {
  const { slug = '' } = useParams();
  const title = useTrainingTitle(useRouteTitle(), slug);
  const { list, query: q } = usePagedQuery('lp/get-training-users', { slug });
  const columns: DataTableColumn<TrainingUserRow>[] = [
    { accessor: 'email', title: 'User Name', sortable: true, render: (u) => u.user_name },
    { accessor: 'first_name', title: 'Name', sortable: true, render: (u) => u.name },
    { accessor: 'start_date', title: 'Start Date', render: (u) => formatDateTime(u.start_date) },
    { accessor: 'end_date', title: 'End Date', render: (u) => formatDateTime(u.end_date) },
    { accessor: 'join', title: 'Join', width: 130, render: (u) => <JoinBadge join={u.join} /> },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <>
            <BackLink to="/all-trainings">Back to trainings</BackLink>
            <Button
              component={Link}
              to={`/add-training-user/${slug}`}
              leftSection={<IconUserPlus size={16} aria-hidden />}
            >
              Add User
            </Button>
          </>
        }
      />
      <DataTable
        label="Training users"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

/** /assing/trainer/:slug: choose the trainers of a training. */
export function AssignTrainerPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const all = useApiQuery('get-trainers-for-assignment');
  const current = useApiQuery('get-training-trainers', { slug });
  const { form, onSubmit, otherError, submitting } = useApiForm<
    { trainer_ids: string[] },
    'assign-trainers-to-training'
  >({
    path: 'assign-trainers-to-training',
    initialValues: { trainer_ids: [] },
    toBody: (v) => ({ slug, trainer_ids: v.trainer_ids.map(Number) }),
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message });
      navigate('/all-trainings');
    },
  });
  const preset = current.data?.list;
  // biome-ignore lint/correctness/useExhaustiveDependencies: preselect once when the current trainers arrive
  useEffect(() => {
    if (preset)
      form.setFieldValue(
        'trainer_ids',
        preset.map((t) => String(t.id)),
      );
  }, [preset]);

  const loading = all.isLoading || current.isLoading;
  const loadError = all.error ?? current.error;
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to="/all-trainings">Back to trainings</BackLink>} />
      <Paper withBorder radius="md" p="md" maw={640}>
        {loading ? (
          <LoadingLines />
        ) : loadError ? (
          <ErrorAlert message={errorText(loadError)} />
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="sm">
              <ErrorAlert message={otherError} />
              <MultiSelect
                label="Trainers"
                placeholder={all.data?.list.length ? 'Choose trainers' : 'No Data Found'}
                searchable
                clearable
                nothingFoundMessage="No Data Found"
                data={(all.data?.list ?? []).map((t) => ({
                  value: String(t.id),
                  label: `${t.first_name} ${t.last_name} (${t.email})`,
                }))}
                {...form.getInputProps('trainer_ids')}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={submitting}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
    </Stack>
  );
}
