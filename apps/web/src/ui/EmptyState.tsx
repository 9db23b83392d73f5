import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import type { ReactNode } from 'react';

interface EmptyStateProps {
  message?: string;
  hint?: ReactNode;
}

/** What an empty list shows ('No Data Found' by default, as the spec says). */
export function EmptyState({ message = MSG.noDataFound, hint }: EmptyStateProps) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="xs">
        <ThemeIcon variant="light" size="xl" radius="xl" color="gray" aria-hidden>
          <IconInbox size={24} />
        </ThemeIcon>
        <Text fw={600}>{message}</Text>
        {hint ? (
          <Text c="dimmed" size="sm" ta="center">
            {hint}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
