import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The red alert at the top of a form that carries `other_error`. */
export function ErrorAlert({ message, title }: { message: ReactNode | null | undefined; title?: string }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} title={title} role="alert" mb="md">
      {message}
    </Alert>
  );
}

export function SuccessAlert({ message }: { message: ReactNode | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status" mb="md">
      {message}
    </Alert>
  );
}
