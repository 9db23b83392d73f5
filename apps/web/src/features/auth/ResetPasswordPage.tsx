import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { MSG, PASSWORD_MIN_LENGTH } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { AuthCard } from './AuthCard';
import { confirmationError, newPasswordError } from './password-rules';

export function ResetPasswordPage() {
  const { i_t = '' } = useParams();
  const [success, setSuccess] = useState<string | null>(null);
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'reset-password',
    initialValues: { password: '', password_confirmation: '' },
    validate: { password: newPasswordError, password_confirmation: confirmationError },
    toBody: (v) => ({ ...v, i_t }),
    onSuccess: (data) => {
      setSuccess(data.message || MSG.passwordReset);
      form.reset();
    },
  });

  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account.">
      <SuccessAlert message={success} />
      <ErrorAlert message={otherError} />
      {success ? (
        <Button component={Link} to="/login" fullWidth>
          Back to Login
        </Button>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              withAsterisk
              description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Confirm password"
              autoComplete="new-password"
              withAsterisk
              {...form.getInputProps('password_confirmation')}
            />
            <Button type="submit" loading={submitting} fullWidth>
              Reset Password
            </Button>
            <Text size="sm" ta="center">
              <Anchor component={Link} to="/login">
                Back to Login
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
