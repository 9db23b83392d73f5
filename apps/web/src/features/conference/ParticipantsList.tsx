import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import type { PeerInfo } from '@trainlab/contract';

/** Everyone in the room, ourselves first, with a raised hand and the host or guest marked. */
export function ParticipantsList({ everyone, meId }: { everyone: PeerInfo[]; meId: string | undefined }) {
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Participants">
      {everyone.map((p) => (
        <Group key={p.id} component="li" gap={6} justify="space-between" wrap="nowrap">
          <Text size="sm" truncate>
            {p.name}
            {p.id === meId ? ' (You)' : ''}
          </Text>
          <Group gap={4} wrap="nowrap">
            {p.hand ? (
              <Badge size="xs" color="orange.9" leftSection={<IconHandStop size={12} aria-hidden />}>
                Hand raised
              </Badge>
            ) : null}
            {p.isModerator ? (
              <Badge size="xs" color="teal.9">
                Host
              </Badge>
            ) : p.guest ? (
              <Badge size="xs" variant="outline">
                Guest
              </Badge>
            ) : null}
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
