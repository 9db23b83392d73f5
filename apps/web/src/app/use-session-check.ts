import { useEffect } from 'react';
import { apiPost, setUnauthenticatedHandler } from '../api/client';
import { getSession } from '../api/session';
import { useLeaveToHome } from './use-leave-to-home';

/**
 * Spec 01 §4: on load (and whenever the window comes back into focus) ask the server for the live
 * token of this e-mail; a different or empty answer means the session was replaced or revoked.
 */
export function useSessionCheck() {
  const leaveToHome = useLeaveToHome();

  useEffect(() => {
    setUnauthenticatedHandler(leaveToHome);
    return () => setUnauthenticatedHandler(null);
  }, [leaveToHome]);

  useEffect(() => {
    let running = false;
    const check = async () => {
      const session = getSession();
      if (!session || running) return;
      running = true;
      try {
        const current = await apiPost('current-token', { email: session.email });
        // signed out or in again meanwhile: that newer state wins
        if (getSession()?.token !== session.token) return;
        if (typeof current !== 'string' || current !== session.token) await leaveToHome();
      } catch {
        // no answer (server down, network): keep the session; a 401 is handled by the client
      } finally {
        running = false;
      }
    };
    void check();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void check();
    };
    window.addEventListener('focus', check);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('focus', check);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [leaveToHome]);
}
