import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconMaximize, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ListRow } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { VmStatusBadge } from './shared';
import { WatchDesktop, type WatchState } from './WatchDesktop';

/** A learner's lab a moderator may watch, with its view-only path. */
export type LabView = ListRow<'training-lab-views'>;

/** labs start and stop during a training: the list is asked again this often */
const REFRESH_MS = 30_000;
const STATE_TEXT: Record<WatchState, string> = { connecting: 'Connecting…', connected: 'Live', closed: 'Disconnected' };

const learnerName = (v: LabView) => `${v.first_name} ${v.last_name}`.trim();

function Thumb({ view, token, onOpen }: { view: LabView; token: string; onOpen: (v: LabView) => void }) {
  const [state, setState] = useState<WatchState>('connecting');
  const name = learnerName(view);
  return (
    <Paper withBorder radius="md" p="xs" component="li" style={{ listStyle: 'none' }}>
      <Stack gap={6}>
        <Group justify="space-between" gap={4} wrap="nowrap">
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
          {view.view_path ? (
            <Badge size="xs" variant="light" color={state === 'connected' ? 'green' : 'gray'} aria-live="polite">
              {STATE_TEXT[state]}
            </Badge>
          ) : (
            <VmStatusBadge status={view.status} />
          )}
        </Group>
        {view.view_path ? (
          <WatchDesktop
            path={view.view_path}
            token={token}
            label={`${name}’s lab desktop (view only)`}
            onState={(s) => setState(s)}
          />
        ) : (
          <Text size="xs" c="dimmed" style={{ aspectRatio: '1296 / 765', display: 'grid', placeItems: 'center' }}>
            {view.status === 1 ? 'This lab has no desktop to watch.' : 'The lab is not running.'}
          </Text>
        )}
        <Button
          size="xs"
          variant="light"
          leftSection={<IconMaximize size={14} aria-hidden />}
          disabled={!view.view_path}
          onClick={() => onOpen(view)}
          aria-label={`Open full size: ${name}’s desktop`}
        >
          Open full size
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * Beside a live training's room, for its moderators: a view-only thumbnail of each enrolled
 * learner's lab desktop, and one of them full size on demand.
 */
export default function LabWatchPanel({ slug }: { slug: string }) {
  const session = useSession();
  const token = session?.token ?? '';
  const q = useQuery({
    queryKey: ['training-lab-views', { slug }],
    queryFn: () => apiPost('training-lab-views', { slug }),
    refetchInterval: REFRESH_MS,
  });
  const [open, setOpen] = useState<LabView | null>(null);
  const list = q.data?.list ?? [];
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="lab-watch-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id="lab-watch-title">
          Learners’ labs
        </Title>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconRefresh size={14} aria-hidden />}
          loading={q.isFetching}
          onClick={() => void q.refetch()}
        >
          Refresh
        </Button>
      </Group>
      {q.isLoading ? (
        <LoadingLines lines={2} />
      ) : q.error ? (
        <ErrorAlert message={errorText(q.error)} />
      ) : !list.length ? (
        <Text size="sm" c="dimmed">
          No enrolled learner has a lab yet.
        </Text>
      ) : (
        <SimpleGrid
          cols={{ base: 1, xs: 2, md: 3, lg: 4 }}
          spacing="xs"
          component="ul"
          aria-label="Learners’ lab desktops"
          style={{ margin: 0, padding: 0 }}
        >
          {list.map((v) => (
            <Thumb key={v.vm_name} view={v} token={token} onOpen={setOpen} />
          ))}
        </SimpleGrid>
      )}
      <Modal
        opened={!!open}
        onClose={() => setOpen(null)}
        title={open ? `${learnerName(open)} · ${open.name}` : ''}
        size="90%"
        centered
      >
        {open?.view_path ? (
          <WatchDesktop
            path={open.view_path}
            token={token}
            label={`${learnerName(open)}’s lab desktop, full size (view only)`}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}
