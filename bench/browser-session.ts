import type { BrowserContext } from '@playwright/test';

/** A signed-in account as the web app keeps it in localStorage. */
export interface StoredSession {
  token: string;
  roles: string[];
  email: string;
  id: number;
}

/** Before any page of `context` loads: the session in localStorage, as the login page leaves it. */
export function storeSession(context: BrowserContext, session: StoredSession): Promise<void> {
  return context.addInitScript((s) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('roles', JSON.stringify(s.roles));
    localStorage.setItem('email', s.email);
    localStorage.setItem('id', String(s.id));
  }, session);
}
