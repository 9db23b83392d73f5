import { ActionIcon, Badge, Group, Stack, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { managedUser } from '@trainlab/contract';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { roleLabel } from '../home/role-labels';
import { PERSON_VALIDATE, PersonForm, type PersonValues, personBody } from './PersonForm';
import { ActiveBadge } from './shared';

type ManagedUser = z.infer<typeof managedUser>;

/** /users-list: the users the caller manages, each with Edit. */
export function UsersListPage() {
  const title = useRouteTitle();
  const q = useApiQuery<{ list: ManagedUser[] }>('get-all-lp-users');
  const columns: DataTableColumn<ManagedUser>[] = [
    { accessor: 'name', title: 'Name', render: (u) => `${u.first_name} ${u.last_name}` },
    { accessor: 'email', title: 'Email' },
    { accessor: 'mobile_no', title: 'Mobile No', render: (u) => u.mobile_no ?? '—' },
    {
      accessor: 'roles',
      title: 'Role',
      render: (u) => (
        <Group gap={4}>
          {u.roles.map((r) => (
            <Badge key={r} variant="light">
              {roleLabel(r)}
            </Badge>
          ))}
        </Group>
      ),
    },
    { accessor: 'status', title: 'Status', render: (u) => <ActiveBadge status={u.status} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (u) => (
        <Tooltip label="Edit">
          <ActionIcon
            variant="light"
            component={Link}
            to={`/update-user-profile/${u.slug}`}
            aria-label={`Edit ${u.first_name} ${u.last_name}`}
          >
            <IconEdit size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} description="The users you manage." />
      <DataTable
        label="Users"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        searchOn={['first_name', 'last_name', 'email', 'mobile_no']}
      />
    </Stack>
  );
}

function UpdateUserForm({ user }: { user: ManagedUser }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const api = useApiForm<PersonValues, { message: string }>({
    path: 'update-user-profile',
    initialValues: {
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      mobile_no: user.mobile_no ?? '',
    },
    validate: PERSON_VALIDATE,
    toBody: (v) => ({ slug: user.slug, ...personBody(v) }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['get-all-lp-users'] });
      await client.invalidateQueries({ queryKey: ['get-user-details'] });
      navigate('/users-list');
    },
  });
  return <PersonForm api={api} submitLabel="Update" back={{ to: '/users-list', label: 'Back to users' }} />;
}

/** /update-user-profile/:slug: edit one managed user; success returns to /users-list with a toast. */
export function UpdateUserProfilePage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const q = useApiQuery<{ success: ManagedUser }>('get-user-details', { slug });
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? <UpdateUserForm key={q.data.success.slug} user={q.data.success} /> : null}
    </Stack>
  );
}
