// Type-only: a value imported from the contract here would put its zod schemas into the first page
// (over its 150 KB budget, e2e/tests/first-page.spec.ts); the code is read from the answer as it is.
import type { ErrorCode } from '@trainlab/contract';
import type { ApiAnswer, ApiPath, BodyArg } from './call-types';
import { type FormErrors, mapApiError } from './errors';
import { clearSession, getToken } from './session';

/** The response header every refusal carries its code in (a 422's body is the field bag, without it). */
export const ERROR_CODE_HEADER = 'X-Error-Code';

/**
 * A call that did not succeed: the HTTP status (0 when no answer came), the parsed body, and the
 * X-Error-Code header of the answer (null when it had none).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headerCode: string | null;
  constructor(status: number, body: unknown, headerCode: string | null = null) {
    super(`API call failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headerCode = headerCode;
  }

  get formErrors(): FormErrors {
    return mapApiError(this.status, this.body);
  }
}

const asCode = (value: unknown): ErrorCode | null =>
  typeof value === 'string' && /^[a-z_]+$/.test(value) ? (value as ErrorCode) : null;

/**
 * The machine-readable code of a failed call (`logged_in_elsewhere`, `not_found`, ...), to decide on
 * rather than its wording: the X-Error-Code header, else the body's `code` beside its `message`. A
 * 422's field named `code` (/sso-exchange) is a list of messages, never read as one. Null when no
 * answer came, or the answer said none.
 */
export function errorCodeOf(error: unknown): ErrorCode | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body;
  const fromBody = body && typeof body === 'object' && 'code' in body ? (body as { code: unknown }).code : null;
  return asCode(error.headerCode) ?? asCode(fromBody);
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
  shows: (field: string, message: string) => boolean,
): { fields: Record<string, string>; top: string | null } {
  const mapped = toFormErrors(error);
  const fields: Record<string, string> = {};
  const top: string[] = mapped.other_error ? [mapped.other_error] : [];
  for (const [field, message] of Object.entries(mapped.fields)) {
    if (shows(field, message)) fields[field] = message;
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

/**
 * Every call of the API: `POST /api/<path>` with a JSON body and the bearer token when signed in.
 * Typed by the path: the body is checked against the call's request schema and the answer is its
 * response schema's output (an overload, so the code sent to the browser is the same untyped function).
 */
export function apiPost<P extends ApiPath>(path: P, ...body: BodyArg<P>): Promise<ApiAnswer<P>>;
export async function apiPost(path: string, body: unknown = {}): Promise<unknown> {
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
    throw new ApiError(res.status, data, res.headers.get(ERROR_CODE_HEADER));
  }
  return data;
}

/** One line for a failed call, for places without fields (lists, toasts). */
export function errorText(error: unknown): string {
  const mapped = toFormErrors(error);
  return mapped.other_error ?? Object.values(mapped.fields)[0] ?? mapApiError(0, null).other_error ?? '';
}
