import { clearSession, getToken } from '../../api/session';

/**
 * Ends the account signed in on this browser before another signs in ('Logout Previous Account'):
 * the server revokes its token, this browser forgets it. Sent without apiPost on purpose: a token
 * the server has already let go answers 401, and apiPost would then leave the login page for '/'.
 */
export async function endSessionHere(): Promise<void> {
  const token = getToken();
  if (!token) return;
  clearSession();
  try {
    await fetch('/api/logout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ token }),
    });
  } catch {
    // the server may be unreachable; this browser has forgotten the token, which is what matters here
  }
}
