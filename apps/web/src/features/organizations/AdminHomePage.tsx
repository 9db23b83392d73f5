import { Badge, Card, Group, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { LazyDashboardCharts } from '../dashboards/LazyDashboardCharts';
import { roleLabel } from '../home/role-labels';

/** A count with its label and, under it, one line saying what exactly is counted. */
export function StatCard({ label, value, hint }: { label: string; value: number | string; hint?: string }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz={28} lh={1.2}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" mt={4} data-testid="stat-hint">
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}

/** What each role's "Users: …" tile counts (every account of that kind, waiting for approval or not). */
const ROLE_HINTS: Record<string, string> = {
  user: 'Learners who registered on their own.',
  provider: 'Learning provider accounts, waiting ones included.',
  provider_user: 'Learners added by a learning provider.',
  organization: 'Organization accounts, waiting ones included.',
  organization_user: 'Members added by an organization.',
  org_subadmin: 'Sub-admins of organizations, waiting ones included.',
  trainer: 'Trainers you registered.',
};

/** /admin/home: what waits for the admin and the platform totals. */
export function AdminHomePage() {
  const title = useRouteTitle();
  const q = useApiQuery('admin/dashboard-data');
  const pending = q.data
    ? [
        { label: 'Organizations to approve', value: q.data.pending.organizations, to: '/admin/approve-organizations' },
        { label: 'Provider requests', value: q.data.pending.providers, to: '/admin/learning-provider-requests' },
        {
          label: 'Organization account requests',
          value: q.data.pending.organization_accounts,
          to: '/admin/learning-provider-requests',
        },
        { label: 'Sub-admin requests', value: q.data.pending.sub_admins, to: '/admin/org-sub-admin-requests' },
      ]
    : [];
  return (
    <Stack gap="xl">
      <PageHeader title={title} description="Pending requests, platform totals and trends." />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? (
        <>
          <Stack component="section" aria-labelledby="pending-title" gap="md">
            <Title id="pending-title" order={2} size="h4">
              Pending requests
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              {pending.map((p) => (
                // named by what it shows ('Provider requests 0 waiting'), so speech control finds it
                <UnstyledButton key={p.label} component={Link} to={p.to}>
                  <Card withBorder radius="md" padding="md" h="100%">
                    <Group justify="space-between" wrap="nowrap">
                      <Stack gap={4}>
                        <Text fw={600}>{p.label}</Text>
                        <Badge color={p.value ? 'orange' : 'gray'} variant="light" size="lg">
                          {p.value} waiting
                        </Badge>
                      </Stack>
                      <IconArrowRight size={18} aria-hidden />
                    </Group>
                  </Card>
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </Stack>
          <Stack component="section" aria-labelledby="totals-title" gap="md">
            <Title id="totals-title" order={2} size="h4">
              Totals
            </Title>
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="md">
              <StatCard
                label="Organizations"
                value={q.data.totals.organizations}
                hint="Every organization, approved or waiting."
              />
              <StatCard
                label="Learning providers"
                value={q.data.totals.providers}
                hint="Approved learning provider accounts."
              />
              <StatCard
                label="Trainings"
                value={q.data.totals.trainings}
                hint="Live trainings of every provider and organization."
              />
              {Object.entries(q.data.totals.users)
                .filter(([role]) => role !== 'admin')
                .map(([role, n]) => (
                  <StatCard key={role} label={`Users: ${roleLabel(role)}`} value={n} hint={ROLE_HINTS[role]} />
                ))}
            </SimpleGrid>
          </Stack>
        </>
      ) : null}
      <LazyDashboardCharts audience="platform" />
    </Stack>
  );
}
