import { Stack } from '@mantine/core';
import type { subadminRequestRow } from '@trainlab/contract';
import type { z } from 'zod';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { AcceptRejectButtons, useDecision } from './shared';

type SubadminRow = z.infer<typeof subadminRequestRow>;

const COLUMNS: DataTableColumn<SubadminRow>[] = [
  { accessor: 'first_name', title: 'First Name' },
  { accessor: 'last_name', title: 'Last Name' },
  { accessor: 'email', title: 'Email' },
  { accessor: 'oname', title: 'Organization' },
  { accessor: 'lob', title: 'Line of business', render: (r) => r.lob ?? '—' },
];

const SEARCH: (keyof SubadminRow)[] = ['first_name', 'last_name', 'email', 'oname'];

/** /admin/org-sub-admin: accepted organization sub-admins. */
export function OrgSubAdminsPage() {
  const title = useRouteTitle();
  const q = useApiQuery('admin/new-org-subadmin-request', { type: 'accepted' });
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Accepted organization sub-admins." />
      <DataTable
        label="Organization sub-admins"
        idAccessor="odid"
        records={q.data?.list}
        columns={COLUMNS}
        loading={q.isLoading}
        error={q.error}
        searchOn={SEARCH}
      />
    </Stack>
  );
}

/** /admin/org-sub-admin-requests: pending sub-admins, Accept/Reject, then /admin/org-sub-admin. */
export function OrgSubAdminRequestsPage() {
  const title = useRouteTitle();
  const q = useApiQuery('admin/new-org-subadmin-request', { type: 'request' });
  const decision = useDecision({
    path: 'admin/update-org-subadmin-request',
    invalidates: ['admin/new-org-subadmin-request', 'admin/dashboard-data'],
    goTo: '/admin/org-sub-admin',
  });
  const columns: DataTableColumn<SubadminRow>[] = [
    ...COLUMNS,
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (r) => {
        const who = `${r.first_name} ${r.last_name}`;
        return (
          <AcceptRejectButtons
            idField="odid"
            id={r.odid}
            who={who}
            subject="sub-admin"
            acceptMessage={`Accept ${who} as a sub-admin of ${r.oname}?`}
            decision={decision}
          />
        );
      },
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Sub-admins proposed by organizations, waiting for approval." />
      <DataTable
        label="Sub-admin requests"
        idAccessor="odid"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        searchOn={SEARCH}
      />
    </Stack>
  );
}
