/**
 * The class bench's participants speak to the server as the web app does: JSON calls to /api/{call}
 * with the session token, multipart imports, and the WebSockets. Sessions are made straight in the
 * database (as the other benches do): signing 50 learners in through /api/login would only measure
 * the password hash.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type * as XLSXTypes from 'xlsx';
import { hashToken, newToken } from '../apps/server/src/platform/auth/tokens';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;

export class CallError extends Error {
  constructor(
    readonly call: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${call}: ${status} ${body.slice(0, 500)}`);
  }
}

/** latencies per call name, in ms */
export class Timings {
  readonly byCall = new Map<string, number[]>();
  add(call: string, ms: number) {
    const list = this.byCall.get(call) ?? [];
    list.push(ms);
    this.byCall.set(call, list);
  }
}

export function client(base: string, timings?: Timings) {
  const post = async <T = Record<string, unknown>>(call: string, body: unknown, token?: string): Promise<T> => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/${call}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    timings?.add(call, performance.now() - t0);
    if (res.status !== 200) throw new CallError(call, res.status, text);
    return JSON.parse(text) as T;
  };
  const upload = async <T = Record<string, unknown>>(
    call: string,
    fields: Record<string, string>,
    file: Buffer,
    token: string,
  ): Promise<T> => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set(
      'file',
      new Blob([new Uint8Array(file)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
      'class.xlsx',
    );
    const t0 = performance.now();
    const res = await fetch(`${base}/api/${call}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await res.text();
    timings?.add(call, performance.now() - t0);
    if (res.status !== 200) throw new CallError(call, res.status, text);
    return JSON.parse(text) as T;
  };
  return { post, upload };
}
export type Client = ReturnType<typeof client>;

/** An .xlsx with a header row and these rows (deflated, shared strings: as Excel saves it). */
export function workbook(header: readonly string[], rows: (string | number)[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[...header], ...rows]), 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true, bookSST: true }) as Buffer;
}

/** A provider account with a session: the class's owner and its trainer in the room. */
export async function provider(pool: pg.Pool, tag: string) {
  const { rows } = await pool.query<{ id: number }>(
    `insert into users (slug, first_name, last_name, email, password_hash, roles, user_type)
     values ($1, 'Class', 'Provider', $2, 'x', '{provider}', 3) returning id`,
    [`class-provider-${tag}`, `class-provider-${tag}@bench.test`],
  );
  return { id: rows[0]!.id, token: await sessionFor(pool, rows[0]!.id) };
}

export async function sessionFor(pool: pg.Pool, userId: number) {
  const token = newToken();
  await pool.query(
    `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '6 hours')`,
    [userId, hashToken(token)],
  );
  return token;
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : Number.NaN;
};
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
