import { Center, Loader, Skeleton, Stack, VisuallyHidden } from '@mantine/core';

// The spinner is a span: axe forbids an aria-label on it, so the status region carries the words.
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
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
