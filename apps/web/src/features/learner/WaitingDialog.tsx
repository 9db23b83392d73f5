import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';

interface WaitingDialogProps {
  opened: boolean;
  onClose: () => void;
  /** asks the server again ('Join Again') */
  onRetry: () => void;
  retrying?: boolean;
  /** shown under the message when a re-ask failed */
  error?: string | null;
}

/** 'Waiting for the host to start the training, please standby !' with Close and Join Again (spec 01 §4). */
export function WaitingDialog({ opened, onClose, onRetry, retrying, error }: WaitingDialogProps) {
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
            Join Again
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
