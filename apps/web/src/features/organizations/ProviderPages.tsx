import { Anchor, Group, Stack, Tabs } from '@mantine/core';
import { IconArrowLeft, IconUsers } from '@tabler/icons-react';
import { type adminUserRow, type childUserRow, USER_TYPES } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { AcceptRejectButtons, ActiveBadge, useDecision } from './shared';

type AdminUserRow = z.infer<typeof adminUserRow>;
type ChildUserRow = z.infer<typeof childUserRow>;

const PERSON_COLUMNS: DataTableColumn<AdminUserRow>[] = [
  { accessor: 'first_name', title: 'First Name', sortable: true },
  { accessor: 'last_name', title: 'Last Name', sortable: true },
  { accessor: 'email', title: 'Email', sortable: true },
  { accessor: 'mobile_no', title: 'Mobile No', render: (u) => u.mobile_no ?? '—' },
];

/** /admin/learning-providers: approved learning providers with View Users. */
export function LearningProvidersPage() {
  const title = useRouteTitle();
  const { list, query: q } = usePagedQuery('admin/get-users-list', {
    role: USER_TYPES.provider,
    type: 'approved',
  });
  const columns: DataTableColumn<AdminUserRow>[] = [
    ...PERSON_COLUMNS,
    { accessor: 'status', title: 'Status', render: (u) => <ActiveBadge status={u.status} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (u) => (
        <RowLink
          to={`/admin/learning-provider-users-list/${u.slug}`}
          label={`View users of ${u.first_name} ${u.last_name}`}
          icon={<IconUsers size={14} aria-hidden />}
        >
          View Users
        </RowLink>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Approved learning providers." />
      <DataTable
        label="Learning providers"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

/** /admin/learning-provider-users-list/:slug: the provider users of one learning provider. */
export function ProviderUsersPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const q = useApiQuery('admin/get-child-users-list', { slug });
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Anchor component={Link} to="/admin/learning-providers" size="sm">
            <Group gap={4}>
              <IconArrowLeft size={16} aria-hidden />
              Back to learning providers
            </Group>
          </Anchor>
        }
      />
      <DataTable
        label="Learning provider users"
        records={q.data?.list}
        columns={PERSON_COLUMNS as DataTableColumn<ChildUserRow>[]}
        loading={q.isLoading}
        error={q.error}
        searchOn={['first_name', 'last_name', 'email']}
      />
    </Stack>
  );
}

function RequestsTable({ role, label }: { role: number; label: string }) {
  // two of these tables share one screen: each keeps its own page, search and sort in the URL
  const { list, query: q } = usePagedQuery(
    'admin/get-users-list',
    { role, type: 'request' },
    { prefix: role === USER_TYPES.provider ? 'lp_' : 'org_' },
  );
  const decision = useDecision({
    path: 'admin/update-learninig-provider-request',
    invalidates: ['admin/get-users-list', 'admin/dashboard-data'],
    goTo: role === USER_TYPES.provider ? '/admin/learning-providers' : undefined,
  });
  const columns: DataTableColumn<AdminUserRow>[] = [
    ...PERSON_COLUMNS,
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (u) => (
        <AcceptRejectButtons
          idField="id"
          id={u.id}
          who={`${u.first_name} ${u.last_name}`}
          subject="request"
          decision={decision}
        />
      ),
    },
  ];
  return (
    <DataTable
      label={label}
      records={q.data?.list}
      columns={columns}
      loading={q.isLoading}
      error={q.error}
      paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
    />
  );
}

/**
 * /admin/learning-provider-requests: learning providers waiting for approval (accepting one goes to
 * /admin/learning-providers) and, in a second tab, organization accounts waiting for approval.
 */
export function ProviderRequestsPage() {
  const title = useRouteTitle();
  const [tab, setTab] = useState<string | null>('providers');
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Accounts waiting for approval." />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="providers">Learning providers</Tabs.Tab>
          <Tabs.Tab value="organizations">Organization accounts</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="providers">
          <RequestsTable role={USER_TYPES.provider} label="Learning provider requests" />
        </Tabs.Panel>
        <Tabs.Panel value="organizations">
          <RequestsTable role={USER_TYPES.organization} label="Organization account requests" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
