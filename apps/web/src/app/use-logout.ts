import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { useCallback } from 'react';
import { apiPost } from '../api/client';
import { getToken } from '../api/session';
import { useLeaveToHome } from './use-leave-to-home';

/** Revokes the session on the server (best effort), forgets it locally and returns to '/'. */
export function useLogout() {
  const leaveToHome = useLeaveToHome();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const token = getToken();
    let message: string = MSG.loggedOut;
    if (token) {
      try {
        const res = await apiPost<{ message?: string }>('logout', { token });
        if (res?.message) message = res.message;
      } catch {
        // the session may already be gone on the server; logging out locally is what matters
      }
    }
    await leaveToHome();
    queryClient.clear();
    notifications.show({ color: 'green', message });
  }, [leaveToHome, queryClient]);
}
