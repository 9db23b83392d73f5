import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { homeForRoles, type SessionUser, SSO_MSG, type SsoErrorReason } from '@trainlab/contract';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { saveSession } from '../../api/session';
import { Loading } from '../../ui/Loading';
import { AuthCard } from '../auth/AuthCard';

/** A code is traded once, even when React runs the effect twice. */
const exchanges = new Map<string, Promise<{ success: SessionUser }>>();
const exchange = (code: string) => {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = apiPost('sso-exchange', { code });
    exchanges.set(code, pending);
  }
  return pending;
};

const reasonText = (reason: string | null): string =>
  (reason && SSO_MSG.errors[reason as SsoErrorReason]) || SSO_MSG.errors.invalid_answer;

/**
 * Where single sign-on lands: with ?code= the session is fetched and the person goes to their
 * role's home; with ?error= the reason is shown with a way back to /login.
 */
export function SsoCompletePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const [error, setError] = useState<string | null>(code ? null : reasonText(params.get('error')));

  useEffect(() => {
    if (!code) return;
    let live = true;
    exchange(code).then(
      (data) => {
        if (!live) return;
        saveSession(data.success);
        navigate(homeForRoles(data.success.roles), { replace: true });
      },
      (e: unknown) => {
        if (live) setError(errorText(e) || SSO_MSG.codeInvalid);
      },
    );
    return () => {
      live = false;
    };
  }, [code, navigate]);

  return (
    <AuthCard title="Enterprise Login" subtitle="Signing in with your organization’s account.">
      {error ? (
        <Stack gap="md">
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            title="Sign-in failed"
          >
            {error}
          </Alert>
          <Text size="sm">If this keeps happening, tell your organization’s IT administrator.</Text>
          <Button component={Link} to="/login" fullWidth>
            Back to Login
          </Button>
        </Stack>
      ) : (
        <Loading label="Signing you in…" />
      )}
    </AuthCard>
  );
}
