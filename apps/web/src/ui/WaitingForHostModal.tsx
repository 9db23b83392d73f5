import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';

interface WaitingForHostModalProps {
  opened: boolean;
  onClose: () => void;
  /** asks the server again */
  onRetry: () => void;
  /** the retry button's words: 'Join Again' where a learner joins, the room's own where it waits */
  retryLabel?: string;
  retrying?: boolean;
  /** shown under the message when a re-ask failed */
  error?: string | null;
}

/**
 * 'Waiting for the host to start the training, please standby !' with Close and a retry (spec 01 §4):
 * the one dialog for a training its host has not started, from the learner's list and the room alike.
 */
export function WaitingForHostModal({
  opened,
  onClose,
  onRetry,
  retryLabel = 'Join Again',
  retrying,
  error,
}: WaitingForHostModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Training not started" centered>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconHourglass size={22} aria-hidden />
          <Text>{MSG.waitingForHost}</Text>
        </Group>
        {error ? (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={onRetry} loading={retrying}>
            {retryLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
