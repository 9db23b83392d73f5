import { Alert, Button, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { Link, useLocation, useNavigate } from 'react-router';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';

/** Said when Create VM sent the manager here: why, and what comes after. */
function FromCreateVm({ step }: { step: 'register' | 'authorize' }) {
  const { state } = useLocation();
  if ((state as { from?: string } | null)?.from !== 'create-vm') return null;
  return (
    <Alert color="blue" title={step === 'register' ? 'A lab account comes first' : 'Sign in to your lab account'}>
      {step === 'register'
        ? 'Virtual machines run, and are billed, under your organization’s lab account. Register it here once and you will be taken back to Create VM.'
        : 'Sign in to your lab account once to create virtual machines; you will be taken back to Create VM.'}
    </Alert>
  );
}

/** Why a lab account besides the manager's own sign-in (issue 41: nothing said why). */
function WhyLabAccount() {
  return (
    <Text size="sm" c="dimmed" maw={720}>
      Why a second account? Your own sign-in is yours; the lab account belongs to your organization. Every manager of
      the organization creates virtual machines under it, its usage is billed to it on Pay VM Billing, and its monthly
      limits apply to all of them. Registering it also signs it in.
    </Text>
  );
}

/** /register-cloud-account (Register For VM): the tenant's lab account; success → /authorize-cloud-account. */
export function RegisterCloudAccountPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm<
    { username: string; email: string; first_name: string; last_name: string; password: string; password2: string },
    'register-gc-account'
  >({
    path: 'register-gc-account',
    initialValues: { username: '', email: '', first_name: '', last_name: '', password: '', password2: '' },
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message ?? MSG.registerSuccess });
      void client.invalidateQueries({ queryKey: ['check-gc-ac-exist'] });
      // whoever came from Create VM keeps being told where this leads
      navigate('/authorize-cloud-account', { state: location.state });
    },
  });
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="One lab account for your organization: the virtual machines you create run under it."
      />
      <FromCreateVm step="register" />
      <WhyLabAccount />
      <Paper withBorder p="lg" radius="md" maw={720}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <ErrorAlert message={otherError} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Username" withAsterisk autoComplete="username" {...form.getInputProps('username')} />
              <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
              <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
              <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
              <PasswordInput
                label="Password"
                withAsterisk
                autoComplete="new-password"
                {...form.getInputProps('password')}
              />
              <PasswordInput
                label="Confirm Password"
                withAsterisk
                autoComplete="new-password"
                {...form.getInputProps('password2')}
              />
            </SimpleGrid>
            <Button type="submit" loading={submitting} w="fit-content">
              Register
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/** /authorize-cloud-account: sign in to the lab account once; success → /create-vm. An account already signed in (as registering does) goes on to Create VM. */
export function AuthorizeCloudAccountPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const client = useQueryClient();
  const account = useApiQuery('check-gc-ac-exist');
  const { form, onSubmit, otherError, submitting } = useApiForm<
    { username: string; password: string },
    'authorize-gc-account'
  >({
    path: 'authorize-gc-account',
    initialValues: { username: '', password: '' },
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message ?? MSG.labAccountAuthorized });
      void client.invalidateQueries({ queryKey: ['check-gc-ac-exist'] });
      navigate('/create-vm');
    },
  });
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Sign in to your lab account to create virtual machines." />
      {account.data?.authorized ? (
        <Alert color="green" title="Your lab account is ready" maw={720}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              The lab account {account.data.username} was signed in when it was registered, so you can create virtual
              machines now. There is nothing to sign in to here.
            </Text>
            <Button component={Link} to="/create-vm">
              Continue to Create VM
            </Button>
          </Stack>
        </Alert>
      ) : (
        <FromCreateVm step="authorize" />
      )}
      <Paper withBorder p="lg" radius="md" maw={480} hidden={Boolean(account.data?.authorized)}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <ErrorAlert message={otherError} />
            <TextInput label="Username" withAsterisk autoComplete="username" {...form.getInputProps('username')} />
            <PasswordInput
              label="Password"
              withAsterisk
              autoComplete="current-password"
              {...form.getInputProps('password')}
            />
            <Button type="submit" loading={submitting} w="fit-content">
              Login
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
