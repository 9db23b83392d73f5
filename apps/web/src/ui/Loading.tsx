import { Center, Loader, Skeleton, Stack, Text } from '@mantine/core';

// The spinner is a span: axe forbids an aria-label on it, so the status region carries the words,
// shown under it (issue 41: a spinner alone for seconds says nothing).
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader aria-hidden="true" />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

export function LoadingLines({ lines = 3 }: { lines?: number }) {
  return (
    <Stack gap="sm" role="status" aria-label="Loading…">
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} height={20} radius="sm" />
      ))}
    </Stack>
  );
}
