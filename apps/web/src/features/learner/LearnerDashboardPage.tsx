import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconPlayerPlay, IconSchool, IconShoppingCart } from '@tabler/icons-react';
import type { dashboardItem } from '@trainlab/contract';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import type { ApiAnswer } from '../../api/call-types';
import { displayName, useSession } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { VmStatusBadge } from '../labs/shared';
import { formatDateTime } from './format';
import { useStartTraining } from './use-start-training';

type DashboardItem = z.infer<typeof dashboardItem>;
/** The learner's virtual machine (spec 01 §7: d_vm_data with vm_name and created_at); null until one is assigned. */
type VmData = NonNullable<ApiAnswer<'lpu/dashboard-data'>['d_vm_data']>;

function VmEntry({ vm, many }: { vm: VmData & { vm_name: string }; many: boolean }) {
  return (
    <Stack gap="xs" align="flex-start" data-testid="learner-vm">
      <Group gap="xs">
        <Text fw={600}>{vm.name || vm.vm_name}</Text>
        {vm.status != null ? <VmStatusBadge status={vm.status} /> : null}
      </Group>
      <Text size="sm" c="dimmed">
        {vm.vm_name} · assigned on {formatDateTime(vm.created_at)}
      </Text>
      {/* one click: the VM page starts the lab and opens it (?start=1) */}
      <Button
        component={Link}
        to={`/vm/${encodeURIComponent(vm.vm_name)}?start=1`}
        size="sm"
        // with several labs, each Start VM names its lab
        aria-label={many ? `Start VM ${vm.name || vm.vm_name}` : undefined}
      >
        Start VM
      </Button>
    </Stack>
  );
}

/** Every lab assigned to the learner (issue 41: not only the newest). */
function VmCard({ vms, loading }: { vms: VmData[]; loading: boolean }) {
  const shown = vms.filter((v): v is VmData & { vm_name: string } => Boolean(v.vm_name));
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="vm-title">
      <Group gap="sm" mb="sm">
        <IconDeviceDesktop size={22} aria-hidden />
        <Title id="vm-title" order={2} size="h4">
          {shown.length > 1 ? `Virtual Machines (${shown.length})` : 'Virtual Machine'}
        </Title>
      </Group>
      {loading ? (
        <Text c="dimmed">Loading…</Text>
      ) : shown.length ? (
        <Stack gap="md">
          {shown.map((vm) => (
            <VmEntry key={vm.vm_name} vm={vm} many={shown.length > 1} />
          ))}
        </Stack>
      ) : (
        <Text c="dimmed">No virtual machine is assigned yet.</Text>
      )}
    </Card>
  );
}

/** /lpu-home and /users: the learner dashboard — upcoming trainings with Start, the VM card (spec 01 §2). */
export function LearnerDashboardPage() {
  const title = useRouteTitle();
  const session = useSession();
  const { pathname } = useLocation();
  const query = useApiQuery('lpu/dashboard-data');
  const { start, busySlug, dialog } = useStartTraining();
  const isUserHome = pathname.replace(/\/$/, '') === '/users';

  return (
    <Stack gap="xl">
      <PageHeader title={title} description={session ? `Welcome, ${displayName(session)}` : undefined} />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="links-title">
          <Title id="links-title" order={2} size="h4" mb="sm">
            Quick links
          </Title>
          <Stack gap="xs">
            <Anchor component={Link} to="/my-trainings">
              <Group gap={6} wrap="nowrap">
                <IconSchool size={16} aria-hidden /> My Trainings
              </Group>
            </Anchor>
            {isUserHome ? (
              <Anchor component={Link} to="/view-cart">
                <Group gap={6} wrap="nowrap">
                  <IconShoppingCart size={16} aria-hidden /> Cart
                </Group>
              </Anchor>
            ) : (
              <Anchor component={Link} to="/user/courses/list">
                <Group gap={6} wrap="nowrap">
                  <IconSchool size={16} aria-hidden /> My Courses
                </Group>
              </Anchor>
            )}
          </Stack>
        </Card>
        <VmCard
          vms={query.data?.vms ?? (query.data?.d_vm_data ? [query.data.d_vm_data] : [])}
          loading={query.isLoading}
        />
      </SimpleGrid>

      <Stack component="section" aria-labelledby="upcoming-title" gap="sm">
        <Title id="upcoming-title" order={2} size="h4">
          Upcoming trainings
        </Title>
        <DataTable<DashboardItem>
          label="Upcoming trainings"
          records={query.data?.list}
          loading={query.isLoading}
          error={query.error}
          columns={[
            { accessor: 'name', title: 'Name' },
            { accessor: 'start_date', title: 'Start Date', render: (t) => formatDateTime(t.start_date) },
            { accessor: 'end_date', title: 'End Date', render: (t) => formatDateTime(t.end_date) },
            {
              accessor: 'actions',
              title: 'Action',
              textAlign: 'right',
              render: (t) => (
                <Group justify="flex-end" wrap="nowrap">
                  <Button
                    size="xs"
                    leftSection={<IconPlayerPlay size={14} aria-hidden />}
                    loading={busySlug === t.slug}
                    onClick={() => void start({ slug: t.slug })}
                    aria-label={`Start ${t.name}`}
                  >
                    Start
                  </Button>
                </Group>
              ),
            },
          ]}
        />
      </Stack>
      {dialog}
    </Stack>
  );
}
