import { Button, Group, type MantineSpacing } from '@mantine/core';

/**
 * A form's footer, at the right: Cancel (leaves without saving; not shown when there is nothing to
 * leave to) and the submit button ('Save' unless told). The forms of popups and pages alike end
 * with it, so they look and read the same.
 */
export function FormActions({
  onCancel,
  submitting,
  submitLabel = 'Save',
  mt,
}: {
  onCancel?: () => void;
  submitting: boolean;
  submitLabel?: string;
  /** space above, for a form whose fields are not in a Stack */
  mt?: MantineSpacing;
}) {
  return (
    <Group justify="flex-end" mt={mt}>
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      )}
      <Button type="submit" loading={submitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}
