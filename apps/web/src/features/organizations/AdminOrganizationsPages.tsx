import { Button, Group, Stack } from '@mantine/core';
import type { OrganizationRecord } from '@trainlab/contract';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { ActiveBadge, useDecision, YesNoBadge } from './shared';

const ORG_COLUMNS: DataTableColumn<OrganizationRecord>[] = [
  { accessor: 'name', title: 'Name', sortable: true },
  { accessor: 'email', title: 'Email', sortable: true },
  { accessor: 'org_domain', title: 'Domain', render: (o) => o.org_domain ?? '—' },
];

/** /admin/organizations: every organization with Activate/Deactivate. */
export function AdminOrganizationsPage() {
  const title = useRouteTitle();
  const { list, query: q } = usePagedQuery('get-organizations');
  const { run, busyKey } = useDecision({ path: 'org-status', invalidates: ['get-organizations', 'get-org-approve'] });
  const columns: DataTableColumn<OrganizationRecord>[] = [
    ...ORG_COLUMNS,
    { accessor: 'is_approved', title: 'Approved', render: (o) => <YesNoBadge value={o.is_approved} /> },
    { accessor: 'status', title: 'Status', render: (o) => <ActiveBadge status={o.status} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (o) => {
        const activate = o.status !== 1;
        return (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <RowLink to={`/admin/organization-sso/${o.id}`} label={`SSO: single sign-on of ${o.name}`} secondary>
              SSO
            </RowLink>
            <Button
              size="xs"
              variant="light"
              color={activate ? 'green' : 'red'}
              loading={busyKey === String(o.id)}
              aria-label={`${activate ? 'Activate' : 'Deactivate'} ${o.name}`}
              onClick={() =>
                run(
                  String(o.id),
                  { org_id: o.id, status: activate ? 1 : 0 },
                  {
                    title: activate ? 'Activate organization' : 'Deactivate organization',
                    message: activate
                      ? `Activate ${o.name}? Its accounts can sign in again.`
                      : `Deactivate ${o.name}? It and all its accounts will not be able to sign in.`,
                    danger: !activate,
                  },
                )
              }
            >
              {activate ? 'Activate' : 'Deactivate'}
            </Button>
          </Group>
        );
      },
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} description="All organizations; deactivate one to block all of its accounts." />
      <DataTable
        label="Organizations"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

/** /admin/approve-organizations: organizations waiting for approval, Yes/No. */
export function ApproveOrganizationsPage() {
  const title = useRouteTitle();
  const { list, query: q } = usePagedQuery('get-org-approve');
  const { run, busyKey } = useDecision({
    path: 'org-approved',
    invalidates: ['get-org-approve', 'get-organizations', 'admin/dashboard-data'],
    goTo: '/admin/organizations',
  });
  const columns: DataTableColumn<OrganizationRecord>[] = [
    ...ORG_COLUMNS,
    { accessor: 'ip_link', title: 'IdP link', render: (o) => o.ip_link ?? '—' },
    {
      accessor: 'actions',
      title: 'Approve',
      textAlign: 'right',
      render: (o) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            color="green"
            loading={busyKey === `${o.id}-1`}
            aria-label={`Yes, approve ${o.name}`}
            onClick={() =>
              run(
                `${o.id}-1`,
                { org_id: o.id, is_approved: 1 },
                { title: 'Approve organization', message: `Approve ${o.name}? It will be e-mailed.` },
              )
            }
          >
            Yes
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={busyKey === `${o.id}-0`}
            aria-label={`No, do not approve ${o.name}`}
            onClick={() =>
              run(
                `${o.id}-0`,
                { org_id: o.id, is_approved: 0 },
                { title: 'Refuse organization', message: `Do not approve ${o.name}?`, danger: true },
              )
            }
          >
            No
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Organizations waiting for approval." />
      <DataTable
        label="Organizations waiting for approval"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
