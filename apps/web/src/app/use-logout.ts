import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { useCallback } from 'react';
import { apiPost } from '../api/client';
import { getToken } from '../api/session';
import { goToIdentityProvider } from '../features/auth/leave-app';
import { useLeaveToHome } from './use-leave-to-home';

/** Revokes the session on the server (best effort), forgets it locally and returns to '/'. */
export function useLogout() {
  const leaveToHome = useLeaveToHome();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const token = getToken();
    let message: string = MSG.loggedOut;
    let ssoLogout: string | undefined;
    if (token) {
      try {
        const res = await apiPost('logout', { token });
        if (res?.message) message = res.message;
        ssoLogout = res?.sso_logout;
      } catch {
        // the session may already be gone on the server; logging out locally is what matters
      }
    }
    await leaveToHome();
    queryClient.clear();
    notifications.show({ color: 'green', message });
    // single sign-on: the organization's identity provider ends its own session too
    if (ssoLogout) goToIdentityProvider(ssoLogout);
  }, [leaveToHome, queryClient]);
}
