import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { homeForRoles, LOGIN_ERROR_CLEAR_MS, MSG } from '@trainlab/contract';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { getSession, safeNext, saveSession, takeRedirectLink, useSession, withNext } from '../../api/session';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { mergeDeviceCart } from '../payments/device-cart';
import { AuthCard } from './AuthCard';
import { endSessionHere } from './end-session-here';
import { useFlashMessage } from './flash-message';
import { goToIdentityProvider } from './leave-app';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // where the visitor came from (the cart, a course page): /login?next=… or a guard's stored path
  const cameFrom = safeNext(params.get('next'));
  const session = useSession();
  const queryClient = useQueryClient();
  const flash = useFlashMessage();
  const clearTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const { form, onSubmit, otherError, clearAllErrors, submitting } = useApiForm({
    path: 'login',
    initialValues: { email: '', password: '', is_previous: true, is_sso: false },
    validate: {
      email: (v) => (v.trim() ? null : 'The email field is required.'),
      password: (v, values) => (values.is_sso || v ? null : 'The password field is required.'),
    },
    toBody: (v) => ({ ...v, email: v.email.trim(), password: v.is_sso ? '' : v.password }),
    // spec 01 §4: a stored token refuses a second sign-in, unless 'Logout Previous Account' is ticked:
    // then the account signed in here is signed out first, and the new one signs in
    guard: async (values) => {
      if (!getSession()) return null;
      if (!values.is_previous) return MSG.alreadyLoggedIn;
      await endSessionHere();
      queryClient.clear();
      return null;
    },
    // wrong credentials are not the email's fault: their message goes at the top of the form
    atTop: (_field, message) => message === MSG.invalidCredentials,
    onSuccess: (data) => {
      if ('sso_redirect' in data) {
        // single sign-on: the organization's identity provider signs the person in, then /sso/complete
        goToIdentityProvider(data.sso_redirect);
        return;
      }
      const user = data.success;
      saveSession(user);
      const stored = takeRedirectLink();
      const next = cameFrom ?? stored ?? homeForRoles(user.roles);
      // the visitor's cart follows them into the account before the next page reads it
      void mergeDeviceCart().finally(() => navigate(next, { replace: true }));
    },
    onError: () => {
      if (clearTimer.current) clearTimeout(clearTimer.current);
      clearTimer.current = setTimeout(clearAllErrors, LOGIN_ERROR_CLEAR_MS);
    },
  });

  useEffect(
    () => () => {
      if (clearTimer.current) clearTimeout(clearTimer.current);
    },
    [],
  );

  const isSso = form.values.is_sso;

  return (
    <AuthCard title="Login" subtitle="Sign in to your TrainLab account.">
      {session ? (
        <Alert
          color="blue"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          mb="md"
          role="status"
          data-testid="already-notice"
        >
          {MSG.alreadyLoggedIn}.{' '}
          <Anchor component={Link} to={homeForRoles(session.roles)}>
            Go to your home
          </Anchor>{' '}
          or sign in with another account below: with Logout Previous Account ticked, {session.email} is signed out
          first.
        </Alert>
      ) : null}
      <SuccessAlert message={flash} />
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...form.getInputProps('email')} />
          {isSso ? null : (
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              withAsterisk
              {...form.getInputProps('password')}
            />
          )}
          <Checkbox
            label="Logout Previous Account"
            description="Signs this account out of any other tab or device, and whoever is signed in on this browser, so that this sign-in goes through."
            {...form.getInputProps('is_previous', { type: 'checkbox' })}
          />
          <Checkbox label="Login With Enterprise" {...form.getInputProps('is_sso', { type: 'checkbox' })} />
          <Group justify="space-between">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot Password?
            </Anchor>
          </Group>
          {isSso ? (
            <Text size="sm" c="dimmed" data-testid="sso-hint">
              You will continue at your organization’s sign-in page.
            </Text>
          ) : null}
          <Button type="submit" loading={submitting} fullWidth>
            Login
          </Button>
          <Text size="sm" ta="center">
            No account yet?{' '}
            <Anchor component={Link} to={withNext('/register', cameFrom)}>
              Register
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
