import { Progress, Stack, Text, VisuallyHidden } from '@mantine/core';

/** Screen readers hear the upload at these points, not at every percent. */
const STEPS = [0, 25, 50, 75, 100];

/**
 * An upload's progress bar with its status in a polite live region: 'Uploading… 25%', then the text
 * of `doneText` once the bytes are sent (e.g. while the server checks the file).
 */
export function UploadProgress({ value, doneText }: { value: number; doneText?: string }) {
  const step = STEPS.filter((s) => s <= value).pop() ?? 0;
  const text = value >= 100 && doneText ? doneText : `Uploading… ${value}%`;
  const spoken = value >= 100 && doneText ? doneText : `Uploading… ${step}%`;
  return (
    <Stack gap={4}>
      <Text size="sm" aria-hidden>
        {text}
      </Text>
      <VisuallyHidden role="status" aria-live="polite">
        {spoken}
      </VisuallyHidden>
      <Progress value={value} aria-label="Upload progress" striped animated={value < 100} />
    </Stack>
  );
}
