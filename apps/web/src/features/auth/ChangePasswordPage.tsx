import { Button, Paper, PasswordInput, Stack } from '@mantine/core';
import { MSG, PASSWORD_MIN_LENGTH } from '@trainlab/contract';
import { useState } from 'react';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { confirmationError, newPasswordError } from './password-rules';

export function ChangePasswordPage() {
  const [success, setSuccess] = useState<string | null>(null);
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'change-password',
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: {
      current_password: (v) => (v ? null : 'The current password field is required.'),
      password: newPasswordError,
      password_confirmation: confirmationError,
    },
    onSuccess: (data) => {
      setSuccess(data.message || MSG.passwordChanged);
      form.reset();
    },
  });

  return (
    <>
      <PageHeader title="Change Password" />
      <Paper withBorder radius="md" p="lg" maw={520}>
        <SuccessAlert message={success} />
        <ErrorAlert message={otherError} />
        <form
          onSubmit={(e) => {
            setSuccess(null);
            onSubmit(e);
          }}
          noValidate
        >
          <Stack gap="md">
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              withAsterisk
              {...form.getInputProps('current_password')}
            />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              withAsterisk
              description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Confirm new password"
              autoComplete="new-password"
              withAsterisk
              {...form.getInputProps('password_confirmation')}
            />
            <Button type="submit" loading={submitting}>
              Change Password
            </Button>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
