import { type FormErrors, mapApiError } from './errors';
import { clearSession, getToken } from './session';

/** A call that did not succeed: the HTTP status (0 when no answer came) and the parsed body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`API call failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get formErrors(): FormErrors {
    return mapApiError(this.status, this.body);
  }
}

/** Maps anything a call may throw to what a form shows. */
export function toFormErrors(error: unknown): FormErrors {
  if (error instanceof ApiError) return error.formErrors;
  return mapApiError(0, null);
}

/**
 * A refusal split for a screen: the messages of the fields it shows an input for, and the rest
 * (`other_error` and fields it has no input for) joined for the alert on top, so none is lost.
 */
export function splitFormErrors(
  error: unknown,
  shows: (field: string) => boolean,
): { fields: Record<string, string>; top: string | null } {
  const mapped = toFormErrors(error);
  const fields: Record<string, string> = {};
  const top: string[] = mapped.other_error ? [mapped.other_error] : [];
  for (const [field, message] of Object.entries(mapped.fields)) {
    if (shows(field)) fields[field] = message;
    else top.push(message);
  }
  return { fields, top: top.length ? top.join(' ') : null };
}

type Listener = () => void | Promise<void>;
let onUnauthenticated: Listener | null = null;

/**
 * The router registers how to leave for '/' when the server says the session is gone; the
 * listener is responsible for clearing the session once it has left the current page.
 */
export function setUnauthenticatedHandler(listener: Listener | null): void {
  onUnauthenticated = listener;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Every call of the API: `POST /api/<path>` with a JSON body and the bearer token when signed in. */
export async function apiPost<T>(path: string, body: unknown = {}): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`/api/${path.replace(/^\//, '')}`, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, null);
  }
  const data = await readBody(res);
  if (!res.ok) {
    if (res.status === 401 && token) {
      if (onUnauthenticated) await onUnauthenticated();
      else clearSession();
    }
    throw new ApiError(res.status, data);
  }
  return data as T;
}

/** One line for a failed call, for places without fields (lists, toasts). */
export function errorText(error: unknown): string {
  const mapped = toFormErrors(error);
  return mapped.other_error ?? Object.values(mapped.fields)[0] ?? mapApiError(0, null).other_error ?? '';
}
