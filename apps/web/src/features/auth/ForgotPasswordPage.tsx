import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '@trainlab/contract';
import { Link, useNavigate } from 'react-router';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { AuthCard } from './AuthCard';

export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'forgot-password',
    initialValues: { email: '' },
    validate: { email: (v) => (v.trim() ? null : 'The email field is required.') },
    toBody: (v) => ({ email: v.email.trim() }),
    onSuccess: (data) => {
      const message = data.message || MSG.resetLinkSent;
      notifications.show({ color: 'green', message });
      // spec: forgot password goes back to /login, which shows the message
      navigate('/login', { state: { message } });
    },
  });

  return (
    <AuthCard title="Forgot Password" subtitle="Enter your e-mail and we will send you a link to reset your password.">
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...form.getInputProps('email')} />
          <Button type="submit" loading={submitting} fullWidth>
            Send Password Reset Link
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login">
              Back to Login
            </Anchor>
            {' · '}
            <Anchor component={Link} to="/register">
              Register
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
