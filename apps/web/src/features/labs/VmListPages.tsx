import { ActionIcon, Alert, Button, Code, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconDeviceDesktop,
  IconListDetails,
  IconPlayerPlay,
  IconPlayerStop,
  IconPlus,
  IconTrash,
  IconUserPlus,
} from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { errorText } from '../../api/client';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import type { CreatedVm } from './CreateVmPage';
import { formatDateTime, formatInr, formatPrice, type UsageRow, usageLabel, type VmRow, VmStatusBadge } from './shared';

/** The logins of the labs just created: shown here once, never again. */
function CreatedLogins({ created }: { created: CreatedVm[] }) {
  const [open, setOpen] = useState(true);
  if (!open || created.length === 0) return null;
  return (
    <Alert
      color="green"
      title="Save these logins now: the passwords are shown only once"
      withCloseButton
      closeButtonLabel="Dismiss logins"
      onClose={() => setOpen(false)}
    >
      {/* a list, not a table: at 360 px a table of three columns ran off the screen (issue 41) */}
      <Stack gap="xs">
        {created.map((c) => (
          <Group key={c.vm_name} gap="xs" wrap="wrap" data-testid="created-login">
            <Text size="sm" fw={600}>
              {c.name}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Username <Code>{c.username}</Code>
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Password <Code>{c.password}</Code>
            </Text>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}

function Counts() {
  const q = useApiQuery('get-vm-count');
  if (!q.data) return null;
  const items = [
    ['VMs', q.data.count],
    ['Running', q.data.running],
    ['Stopped', q.data.stopped],
    // a lab just created has not run yet: neither running nor stopped
    ['Not started', q.data.not_started ?? 0],
    ['Unassigned', q.data.unassigned],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }}>
      {items.map(([label, n]) => (
        <Paper key={label} withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="xl">
            {n}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** /vm-list: the tenant's labs with start/stop, open, details and delete. */
export function VmListPage() {
  const title = useRouteTitle();
  const location = useLocation();
  const created = ((location.state as { created?: CreatedVm[] } | null)?.created ?? []) as CreatedVm[];
  const { list, query: q } = usePagedQuery('vm-list');
  const toggle = useApiMutation('vm-start-stop', ['vm-list', 'get-vm-count']);
  const remove = useApiMutation('vm-delete', ['vm-list', 'get-vm-count']);
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (key: string, fn: () => Promise<{ message?: string }>) => {
    setBusy(key);
    try {
      const res = await fn();
      notifications.show({ color: 'green', message: res.message ?? MSG.vmUpdated });
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(e) });
    } finally {
      setBusy(null);
    }
  };

  const columns: DataTableColumn<VmRow>[] = [
    { accessor: 'name', title: 'Name', sortable: true },
    {
      accessor: 'vm_name',
      title: 'VM Name',
      sortable: true,
      render: (v) => (
        <Text component={Link} to={`/vm-details/${v.vm_name}`} size="sm" c="blue">
          {v.vm_name}
        </Text>
      ),
    },
    { accessor: 'image', title: 'OS' },
    // one column for the size keeps the actions in view at a laptop's width (zone: on the details page)
    {
      accessor: 'ram',
      title: 'RAM · Disk',
      sortable: true,
      render: (v) => <span style={{ whiteSpace: 'nowrap' }}>{`${v.ram} GB · ${v.storage} GB`}</span>,
    },
    {
      accessor: 'assigned_user',
      title: 'Assigned To',
      render: (v) => (v.assigned_user ? `${v.assigned_user.first_name} ${v.assigned_user.last_name}` : '—'),
    },
    { accessor: 'created', title: 'Created', sortable: true, render: (v) => formatDateTime(v.created) },
    { accessor: 'status', title: 'Status', sortable: true, render: (v) => <VmStatusBadge status={v.status} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (v) => {
        const running = v.status === 1;
        // spec 02 §4: the toggle sends stop if status is 1, otherwise start
        const action = running ? 'stop' : 'start';
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label={running ? 'Stop' : 'Start'}>
              <ActionIcon
                variant="subtle"
                color={running ? 'orange' : 'green'}
                aria-label={`${running ? 'Stop' : 'Start'} ${v.name}`}
                loading={busy === `${v.id}-toggle`}
                onClick={() =>
                  void run(`${v.id}-toggle`, () => toggle.mutateAsync({ action, name: v.vm_name, is_user: 0 }))
                }
              >
                {running ? <IconPlayerStop size={18} aria-hidden /> : <IconPlayerPlay size={18} aria-hidden />}
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Open">
              <ActionIcon variant="subtle" component={Link} to={`/vm/${v.vm_name}`} aria-label={`Open ${v.name}`}>
                <IconDeviceDesktop size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Details">
              <ActionIcon
                variant="subtle"
                component={Link}
                to={`/vm-details/${v.vm_name}`}
                aria-label={`Details of ${v.name}`}
              >
                <IconListDetails size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${v.name}`}
                loading={busy === `${v.id}-delete`}
                onClick={() =>
                  confirmAction({
                    title: 'Delete VM',
                    message: `Delete the VM "${v.name}"? Its machine is removed; its usage stays on the bill.`,
                    danger: true,
                    onConfirm: () => void run(`${v.id}-delete`, () => remove.mutateAsync({ name: v.vm_name })),
                  })
                }
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        );
      },
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Your virtual machines, who they are assigned to and what they are doing."
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to="/assign-vm-to-user"
              variant="default"
              leftSection={<IconUserPlus size={16} aria-hidden />}
            >
              Assign VM
            </Button>
            <Button component={Link} to="/create-vm" leftSection={<IconPlus size={16} aria-hidden />}>
              Create VM
            </Button>
          </Group>
        }
      />
      <CreatedLogins created={created} />
      <Counts />
      <DataTable
        label="Virtual machines"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

/** /vm-details/{name}: the lab and its usage rows with minutes and cost. */
export function VmDetailsPage() {
  const title = useRouteTitle();
  const { name = '' } = useParams();
  const q = useApiQuery('vm-details', { name });
  const columns: DataTableColumn<UsageRow>[] = [
    {
      accessor: 'first_name',
      title: 'User',
      render: (u) => [u.first_name, u.last_name].filter(Boolean).join(' ') || '—',
    },
    { accessor: 'status', title: 'Status', render: (u) => usageLabel(u.status) },
    { accessor: 'vm_start', title: 'Start', render: (u) => formatDateTime(u.vm_start) },
    { accessor: 'vm_stop', title: 'Stop', render: (u) => formatDateTime(u.vm_stop) },
    { accessor: 'used_min', title: 'Used (min)', textAlign: 'right' },
    { accessor: 'cost', title: 'Cost', textAlign: 'right', render: (u) => formatInr(u.cost) },
  ];
  return (
    <Stack gap="md">
      <BackLink to="/vm-list">VM List</BackLink>
      <PageHeader title={q.data ? `${title}: ${q.data.data.name}` : title} />
      {q.isLoading ? <Loading /> : null}
      <ErrorAlert message={q.error ? errorText(q.error) : null} />
      {q.data ? (
        <>
          <Paper withBorder p="md" radius="md">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              {(
                [
                  ['VM Name', q.data.data.vm_name],
                  ['Status', <VmStatusBadge key="s" status={q.data.data.status} />],
                  ['OS', `${q.data.data.image} (${q.data.data.protocol})`],
                  ['Zone', q.data.data.zone],
                  ['RAM', `${q.data.data.ram} GB`],
                  ['Storage', `${q.data.data.storage} GB`],
                  ['Login', q.data.data.username],
                  ['Price', `${formatPrice(q.data.data.hourly_price)} per hour`],
                  ['Created', formatDateTime(q.data.data.created)],
                  [
                    'Assigned To',
                    q.data.data.assigned_user
                      ? `${q.data.data.assigned_user.first_name} ${q.data.data.assigned_user.last_name}`
                      : '—',
                  ],
                  ['Used', `${q.data.used_min} min`],
                  ['Total Cost', formatInr(q.data.total_cost)],
                ] as const
              ).map(([label, value]) => (
                <div key={label}>
                  <Text size="xs" c="dimmed">
                    {label}
                  </Text>
                  <Text size="sm" fw={500} component="div">
                    {value}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </Paper>
          {q.data.data.price ? (
            <Text size="sm" c="dimmed" data-testid="vm-price-rule">
              {formatPrice(q.data.data.hourly_price)} per hour = machine{' '}
              {formatPrice(q.data.data.price.machine_per_hour)} per hour + storage{' '}
              {formatInr(q.data.data.price.storage_per_month)} per month (
              {formatPrice(q.data.data.price.storage_per_hour)} per running hour). Each run costs this price × its
              minutes ÷ 60, rounded to the paisa; the runs add up to the total.
            </Text>
          ) : null}
          <DataTable label="Usage" records={q.data.usage} columns={columns} loading={false} />
        </>
      ) : null}
    </Stack>
  );
}
