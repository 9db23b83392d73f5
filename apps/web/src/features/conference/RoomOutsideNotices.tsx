import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { WaitingForHostModal } from '../../ui/WaitingForHostModal';
import type { RoomPhase } from './use-room-connection';

/** Outside the room: waiting for the host, the training open elsewhere, or left. */
export function RoomOutsideNotices({
  phase,
  guest,
  onLeave,
  onRetry,
}: {
  phase: RoomPhase;
  guest?: boolean;
  onLeave: () => void;
  onRetry: () => void;
}) {
  return (
    <>
      <WaitingForHostModal
        opened={phase === 'waiting'}
        retryLabel={guest ? 'Try Again' : 'Join Again'}
        onClose={onLeave}
        onRetry={onRetry}
      />
      <Modal opened={phase === 'already-open'} onClose={onLeave} title="Training already open" centered>
        <Stack>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconAlertTriangle size={22} aria-hidden />
            <Text>{MSG.trainingAlreadyOpen}</Text>
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onLeave}>
              Close
            </Button>
          </Group>
        </Stack>
      </Modal>
      {phase === 'closed' ? <Text c="dimmed">You have left the meeting.</Text> : null}
    </>
  );
}
