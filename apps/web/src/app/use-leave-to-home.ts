import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clearSession } from '../api/session';

/** Navigation state of '/' after a sign-out, so the landing page does not bounce to a role home. */
export interface LeftState {
  signedOut: true;
}

/**
 * Ends the local session and shows '/'. It leaves the page first: clearing first would let the
 * guard of a page that needs a session send the visitor to /login instead.
 */
export function useLeaveToHome() {
  const navigate = useNavigate();
  return useCallback(async () => {
    const state: LeftState = { signedOut: true };
    // flushSync: the new page must be on screen before the session disappears from under the old one
    await navigate('/', { replace: true, state, flushSync: true });
    clearSession();
  }, [navigate]);
}
