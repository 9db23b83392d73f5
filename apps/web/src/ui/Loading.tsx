import { Center, Loader, Skeleton, Stack } from '@mantine/core';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader aria-label={label} />
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
