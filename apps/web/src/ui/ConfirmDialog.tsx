import { Button, Group, Modal, Text } from '@mantine/core';
import type { ConfirmRequest } from './confirm';

/** The Yes/No dialog of confirmAction (its own chunk). */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose: () => void }) {
  const cancel = () => {
    onClose();
    request.onCancel?.();
  };
  return (
    <Modal opened onClose={cancel} title={request.title} centered>
      <Text size="sm">{request.message}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={cancel}>
          No
        </Button>
        <Button
          color={request.danger ? 'red' : undefined}
          onClick={() => {
            onClose();
            request.onConfirm();
          }}
        >
          {request.confirmLabel ?? 'Yes'}
        </Button>
      </Group>
    </Modal>
  );
}
