import { Badge, Group, Stack } from '@mantine/core';
import type { managedUser } from '@trainlab/contract';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { roleLabel } from '../home/role-labels';
import { EditPersonLink, PersonForm, usePersonUpdate } from './PersonForm';
import { ActiveBadge } from './shared';

type ManagedUser = z.infer<typeof managedUser>;

/** /users-list: the users the caller manages, each with Edit. */
export function UsersListPage() {
  const title = useRouteTitle();
  const { list, query: q } = usePagedQuery('get-all-lp-users');
  const columns: DataTableColumn<ManagedUser>[] = [
    { accessor: 'first_name', title: 'Name', sortable: true, render: (u) => `${u.first_name} ${u.last_name}` },
    { accessor: 'email', title: 'Email', sortable: true },
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
      render: (u) => <EditPersonLink to={`/update-user-profile/${u.slug}`} person={u} />,
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
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

function UpdateUserForm({ user }: { user: ManagedUser }) {
  const api = usePersonUpdate({
    path: 'update-user-profile',
    person: user,
    key: { slug: user.slug },
    invalidates: ['get-all-lp-users', 'get-user-details'],
    goTo: '/users-list',
  });
  return <PersonForm api={api} submitLabel="Update" back={{ to: '/users-list', label: 'Back to users' }} />;
}

/** /update-user-profile/:slug: edit one managed user; success returns to /users-list with a toast. */
export function UpdateUserProfilePage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const q = useApiQuery('get-user-details', { slug });
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? <UpdateUserForm key={q.data.success.slug} user={q.data.success} /> : null}
    </Stack>
  );
}
