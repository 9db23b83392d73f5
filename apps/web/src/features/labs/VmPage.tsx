import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Tabs, Text } from '@mantine/core';
import { IconArrowLeft, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { homeForRoles, MANAGER_ROLES, VM_STATUS } from '@trainlab/contract';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { VmStatusBadge } from './shared';

const TerminalView = lazy(() => import('./TerminalView'));
const DesktopView = lazy(() => import('./DesktopView'));
const RdpView = lazy(() => import('./RdpView'));

/**
 * /vm/{name}: Start Connection and Close Connection; a terminal and the desktop in the browser.
 * `?start=1` (the dashboard's Start VM) starts and opens the lab in one click; closing a running lab
 * asks whether to stop it, since it is billed by the hour while it runs.
 */
export function VmPage() {
  const { name = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const roles = session?.roles ?? [];
  const manager = MANAGER_ROLES.some((r) => roles.includes(r));
  const q = useApiQuery('vm-connection', { name });
  const [connected, setConnected] = useState(false);
  const [starting, setStarting] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const autoStarted = useRef(false);
  // spec 02 §2: providers and organizations return to /vm-list, everyone else to their home
  const listRoles = ['provider', 'organization'];
  const backTo = roles.some((r) => listRoles.includes(r)) ? '/vm-list' : homeForRoles(roles);

  const start = async () => {
    setError(null);
    setStarting(true);
    try {
      if (q.data?.status !== VM_STATUS.start) {
        await apiPost('vm-start-stop', { action: 'start', name, is_user: manager ? 0 : 1 });
        await q.refetch();
      }
      setConnected(true);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setStarting(false);
    }
  };

  const leave = () => {
    setConnected(false);
    navigate(backTo);
  };
  // a running lab keeps billing after its window closes: ask, do not decide for the learner
  const close = () => (q.data?.status === VM_STATUS.start ? setAsking(true) : leave());
  const stopAndLeave = async () => {
    setError(null);
    setStopping(true);
    try {
      await apiPost('vm-start-stop', { action: 'stop', name, is_user: manager ? 0 : 1 });
      setAsking(false);
      leave();
    } catch (e) {
      setAsking(false);
      setError(errorText(e));
    } finally {
      setStopping(false);
    }
  };

  const ready = !!q.data && !q.data.problem && q.data.status !== VM_STATUS.deleted;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the lab's state is known
  useEffect(() => {
    if (search.get('start') !== '1' || autoStarted.current || !ready) return;
    autoStarted.current = true;
    void start();
  }, [ready, search]);

  if (q.isLoading) return <Loading />;
  if (q.error || !q.data) {
    return (
      <Stack gap="md">
        <PageHeader title="Virtual Machine" />
        <ErrorAlert message={errorText(q.error)} />
      </Stack>
    );
  }
  const c = q.data;
  const token = session?.token ?? '';
  return (
    <Stack gap="md">
      <Anchor component={Link} to={backTo} size="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={14} aria-hidden />
          {backTo === '/vm-list' ? 'Back to the VM list' : 'Back to your dashboard'}
        </Group>
      </Anchor>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Stop the VM too?" centered>
        <Stack gap="md">
          <Text size="sm">
            The VM keeps running, and is billed by the hour, until it is stopped or stops by itself when idle.
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={leave}>
              Keep it running
            </Button>
            <Button color="red" loading={stopping} onClick={() => void stopAndLeave()}>
              Stop the VM
            </Button>
          </Group>
        </Stack>
      </Modal>
      <PageHeader
        title={c.name}
        description={`${c.vm_name} · ${c.image} · login ${c.username}`}
        actions={
          <Group gap="xs">
            <VmStatusBadge status={c.status} />
            {connected ? (
              <Button color="red" leftSection={<IconPlugConnectedX size={16} aria-hidden />} onClick={close}>
                Close Connection
              </Button>
            ) : (
              <Button
                leftSection={<IconPlugConnected size={16} aria-hidden />}
                loading={starting}
                disabled={!!c.problem || c.status === VM_STATUS.deleted}
                onClick={() => void start()}
              >
                Start Connection
              </Button>
            )}
          </Group>
        }
      />
      {c.problem ? (
        <Alert color="orange" title="Labs are not available on this server">
          {c.problem}
        </Alert>
      ) : null}
      {c.rdp && c.rdp_problem ? (
        <Alert color="orange" title="No remote desktop on this server">
          {c.rdp_problem}
        </Alert>
      ) : null}
      <ErrorAlert message={error} />
      {connected ? (
        <Paper withBorder radius="md" p="xs">
          {c.rdp ? (
            c.rdp_problem ? (
              <Text c="dimmed" p="md">
                No remote desktop on this server.
              </Text>
            ) : (
              <Suspense fallback={<Loading label="Connecting…" />}>
                <RdpView name={c.vm_name} token={token} onClosed={() => undefined} />
              </Suspense>
            )
          ) : (
            <Tabs defaultValue={c.terminal ? 'terminal' : 'desktop'} keepMounted>
              <Tabs.List>
                {c.terminal ? <Tabs.Tab value="terminal">Terminal</Tabs.Tab> : null}
                {c.desktop ? <Tabs.Tab value="desktop">Desktop</Tabs.Tab> : null}
              </Tabs.List>
              <Suspense fallback={<Loading label="Connecting…" />}>
                {c.terminal ? (
                  <Tabs.Panel value="terminal" pt="xs">
                    <TerminalView name={c.vm_name} token={token} onClosed={(reason) => reason && setError(reason)} />
                  </Tabs.Panel>
                ) : null}
                {c.desktop ? (
                  <Tabs.Panel value="desktop" pt="xs">
                    <DesktopView name={c.vm_name} token={token} onClosed={() => undefined} />
                  </Tabs.Panel>
                ) : null}
              </Suspense>
              {!c.terminal && !c.desktop ? (
                <Text c="dimmed" p="md">
                  This VM runs on an engine without remote access.
                </Text>
              ) : null}
            </Tabs>
          )}
        </Paper>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Stack gap={4}>
            {starting ? (
              <Text fw={500} role="status" data-testid="lab-starting">
                Starting the VM and opening its connection: this takes a few seconds…
              </Text>
            ) : null}
            <Text>
              Start the connection to open {c.terminal ? 'a terminal' : ''}
              {c.terminal && c.desktop ? ' and ' : ''}
              {c.desktop ? 'the desktop' : ''}
              {!c.terminal && !c.desktop ? 'the VM' : ''} in this window.
            </Text>
            <Text size="sm" c="dimmed">
              Display {c.width}×{c.height}, scaled to the window. <Badge variant="light">{c.protocol}</Badge>
            </Text>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
