import { Badge, Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { displayName, useSession } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { QuickLinks } from '../../ui/QuickLinks';
import { LazyDashboardCharts } from '../dashboards/LazyDashboardCharts';
import { roleLabel } from '../home/role-labels';
import { StatCard } from './AdminHomePage';

/** /organization: the organization's counts, latest users and the way to add a sub-admin. */
export function OrganizationHomePage() {
  const title = useRouteTitle();
  const q = useApiQuery('org/dashboard-data');
  const c = q.data?.counts;
  return (
    <Stack gap="xl">
      <PageHeader
        title={q.data?.organization.name ?? title}
        description="Your organization at a glance."
        actions={
          <Button component={Link} to="/org/add-org-sub-admin" leftSection={<IconUserPlus size={16} aria-hidden />}>
            Add sub-admin or user
          </Button>
        }
      />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {c ? (
        <SimpleGrid cols={{ base: 2, sm: 3, xl: 6 }} spacing="md" aria-label="Organization counts">
          <StatCard label="Sub-admins" value={c.sub_admins} hint="Approved; they manage the organization with you." />
          <StatCard
            label="Pending sub-admins"
            value={c.pending_sub_admins}
            hint="Added, waiting for the admin’s approval."
          />
          <StatCard
            label="Users"
            value={c.organization_users}
            hint="Every account of the organization: yours, sub-admins and members."
          />
          <StatCard label="Departments" value={c.departments} hint="A member’s department is picked from these." />
          <StatCard label="Branches" value={c.branches} hint="A member’s branch is picked from these." />
          <StatCard label="Sections" value={c.sections} hint="A member’s section is picked from these." />
        </SimpleGrid>
      ) : null}
      <LazyDashboardCharts audience="tenant" />
      {q.data ? (
        <Stack component="section" aria-labelledby="latest-users-title" gap="md">
          <Title id="latest-users-title" order={2} size="h4">
            Latest users
          </Title>
          <Text size="sm" c="dimmed" mt={-8} data-testid="latest-users-hint">
            The newest {Math.min(q.data.list.length, q.data.counts.organization_users)} of the{' '}
            {q.data.counts.organization_users} users counted above.
          </Text>
          <DataTable
            label="Latest users"
            records={q.data.list}
            columns={[
              { accessor: 'name', title: 'Name' },
              { accessor: 'email', title: 'Email' },
              {
                accessor: 'role',
                title: 'Role',
                // a long role ('Organization Sub Admin') wraps inside its badge on a phone instead of being cut off
                render: (u) => (
                  <Badge
                    variant="light"
                    h="auto"
                    py={2}
                    styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                  >
                    {roleLabel(u.role)}
                  </Badge>
                ),
              },
              {
                accessor: 'created_at',
                title: 'Added',
                render: (u) => new Date(u.created_at).toLocaleDateString(),
              },
            ]}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}

const OU_LINKS = [
  { label: 'My Courses', to: '/user/courses/list' },
  { label: 'My Trainings', to: '/my-trainings' },
];

/** /ou/home: the organization user's organization, branch, department, section and quick links. */
export function OuHomePage() {
  const title = useRouteTitle();
  const session = useSession();
  const q = useApiQuery('ou/dashboard-data');
  const s = q.data?.success;
  const facts = s
    ? [
        { label: 'Organization', value: s.organization },
        { label: 'Branch', value: s.branch },
        { label: 'Department', value: s.department },
        { label: 'Section', value: s.section },
      ]
    : [];
  return (
    <Stack gap="xl">
      <PageHeader title={title} />
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="ou-welcome">
        <Title id="ou-welcome" order={2} size="h3" mb="sm">
          Welcome, {session ? displayName(session) : ''}
        </Title>
        {q.isLoading ? <Loading /> : null}
        {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
        {s ? (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            {facts.map((f) => (
              <Stack key={f.label} gap={2}>
                <Text size="sm" c="dimmed">
                  {f.label}
                </Text>
                <Text fw={600}>{f.value ?? 'Not assigned'}</Text>
              </Stack>
            ))}
          </SimpleGrid>
        ) : null}
      </Card>
      <QuickLinks links={OU_LINKS} />
    </Stack>
  );
}
