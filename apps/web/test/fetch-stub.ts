import { vi } from 'vitest';

/** A server answer: status, JSON body, and any headers beside its Content-Type (X-Error-Code). */
export interface StubReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export type StubHandler = (body: Record<string, unknown>, init: RequestInit) => StubReply | Promise<StubReply>;

export interface RecordedCall {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * Replaces `fetch` at the network boundary. Each handler answers one API path (without /api/).
 * `current-token` answers the stored token unless a test says otherwise, as the live server does
 * for a valid session. Unknown paths answer 404 like the server.
 */
export function stubFetch(
  handlers: Record<string, StubHandler> = {},
  /** 'pending': unknown paths never answer (a walk through screens that checks only where they land) */
  options: { unknown?: 'not-found' | 'pending' } = {},
) {
  const calls: RecordedCall[] = [];
  const all: Record<string, StubHandler> = {
    'current-token': () => ({ body: localStorage.getItem('token') ?? '' }),
    ...handlers,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^.*?\/api\//, '');
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ path, body, headers: (init.headers ?? {}) as Record<string, string> });
    const handler = all[path];
    if (!handler && options.unknown === 'pending') return new Promise<Response>(() => {});
    const reply = handler ? await handler(body, init) : { status: 404, body: { message: 'Not Found' } };
    return new Response(JSON.stringify(reply.body ?? {}), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (path: string) => calls.filter((c) => c.path === path) };
}

/** A handler that refuses the first call with a 422 of `errors` (by field) and answers every later one with `body`. */
export function refuseFirst(errors: Record<string, string[]>, body: unknown): StubHandler {
  let first = true;
  return () => {
    if (first) {
      first = false;
      return { status: 422, body: errors };
    }
    return { body };
  };
}
