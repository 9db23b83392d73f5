import { Progress, Stack, Text, VisuallyHidden } from '@mantine/core';

/** Screen readers hear the upload at these points, not at every percent. */
const STEPS = [0, 25, 50, 75, 100];

/**
 * An upload's progress bar and line ('Uploading… 37%', then `doneText` once the bytes are sent, e.g.
 * while the server checks the file), with a polite live region that speaks only at quarter steps.
 */
export function UploadProgress({ value, doneText }: { value: number; doneText?: string }) {
  const step = STEPS.filter((s) => s <= value).pop() ?? 0;
  const text = value >= 100 && doneText ? doneText : `Uploading… ${value}%`;
  // worded apart from the visible line, which changes every percent and is read when reached
  const spoken = value >= 100 ? `Upload complete.${doneText ? ` ${doneText}` : ''}` : `Upload ${step}% done.`;
  return (
    <Stack gap={4}>
      <Text size="sm">{text}</Text>
      <VisuallyHidden role="status" aria-live="polite">
        {spoken}
      </VisuallyHidden>
      <Progress value={value} aria-label="Upload progress" striped animated={value < 100} />
    </Stack>
  );
}
