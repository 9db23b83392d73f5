import { useSyncExternalStore } from 'react';

/** The signed-in account as kept in localStorage (spec 01 §3: token, roles, email, id, names). */
export interface Session {
  token: string;
  roles: string[];
  email: string;
  id: string;
  first_name: string;
  last_name: string;
}

export const SESSION_KEYS = ['token', 'roles', 'email', 'id', 'first_name', 'last_name'] as const;
export const REDIRECT_KEY = 'redirect_link';

const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cachedSession: Session | null = null;

function readRoles(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/** The stored session, or null when no token is kept. The same object is returned until storage changes. */
export function getSession(): Session | null {
  const raw = SESSION_KEYS.map((k) => localStorage.getItem(k) ?? '').join('\u0000');
  if (raw === cachedRaw) return cachedSession;
  cachedRaw = raw;
  const token = localStorage.getItem('token');
  cachedSession = token
    ? {
        token,
        roles: readRoles(localStorage.getItem('roles')),
        email: localStorage.getItem('email') ?? '',
        id: localStorage.getItem('id') ?? '',
        first_name: localStorage.getItem('first_name') ?? '',
        last_name: localStorage.getItem('last_name') ?? '',
      }
    : null;
  return cachedSession;
}

export function getToken(): string | null {
  return localStorage.getItem('token') || null;
}

function notify() {
  for (const listener of listeners) listener();
}

export interface SessionInput {
  token: string;
  roles: readonly string[];
  email: string;
  _id: number | string;
  first_name: string;
  last_name: string;
}

export function saveSession(user: SessionInput): void {
  localStorage.setItem('token', user.token);
  localStorage.setItem('roles', JSON.stringify(user.roles));
  localStorage.setItem('email', user.email);
  localStorage.setItem('id', String(user._id));
  localStorage.setItem('first_name', user.first_name);
  localStorage.setItem('last_name', user.last_name);
  notify();
}

export function clearSession(): void {
  for (const key of SESSION_KEYS) localStorage.removeItem(key);
  notify();
}

/** A `next` path that stays on this site ('/cart'), never another host ('//x', '/\\x') nor a sign-in page. */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  if (/^\/(login|register)(?:[/?#]|$)/.test(raw)) return null;
  return raw;
}

/** /login or /register that brings the visitor back to `next` afterwards. */
export const withNext = (to: '/login' | '/register', next: string | null | undefined): string => {
  const safe = safeNext(next);
  return safe ? `${to}?next=${encodeURIComponent(safe)}` : to;
};

/** Takes (and forgets) the path a guard stored before sending the visitor to /login. */
export function takeRedirectLink(): string | null {
  const link = localStorage.getItem(REDIRECT_KEY);
  localStorage.removeItem(REDIRECT_KEY);
  return link || null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // another tab signing in or out changes storage too
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || (SESSION_KEYS as readonly string[]).includes(e.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

export function displayName(session: Pick<Session, 'first_name' | 'last_name' | 'email'>): string {
  const name = `${session.first_name} ${session.last_name}`.trim();
  return name || session.email;
}
