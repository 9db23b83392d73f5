import { API, type ApiCall, MANAGER_ROLES, type Role } from '@trainlab/contract';
import { eq, lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { auditLog } from '../db/schema';
import type { Deps } from './deps';
import { uploadOf } from './excel/multipart';
import type { AuthContext } from './http/auth-context';
import type { CallContext } from './http/define-call';
import { isSensitiveField, REDACTED } from './sensitive-fields';
import { isOrganizationRole, PROVIDER_ROLE } from './tenancy';

/**
 * The audit trail's one writer. A change made by an admin or a tenant's manager writes one row:
 * who (id, role, e-mail), when, the call and its target, the before/after of the fields that changed,
 * and the client address (request.ip, which believes X-Forwarded-For only from TRUST_PROXY).
 * Secrets and KYC numbers never reach a row: any field platform/sensitive-fields.ts names is
 * written as '[redacted]'.
 */

/** The admin and every tenant's managers (platform/tenancy.ts), most powerful first. */
const AUDITED_ROLES: readonly Role[] = ['admin', ...MANAGER_ROLES];
export { REDACTED };

type Changes = Record<string, { before: unknown; after: unknown }>;

/** The role an actor acted in (the most powerful it holds), or null when its changes are not audited. */
export function auditedRole(roles: readonly string[]): string | null {
  return AUDITED_ROLES.find((r) => roles.includes(r)) ?? null;
}

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isSensitiveField(k) ? REDACTED : plain(v)]),
    );
  }
  return value;
}

/** The fields whose values differ between two versions of a row (either may be missing), secrets redacted. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Changes {
  const out: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const b = plain(before?.[key]);
    const a = plain(after?.[key]);
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    out[key] = isSensitiveField(key)
      ? { before: b === undefined ? undefined : REDACTED, after: a === undefined ? undefined : REDACTED }
      : { before: b ?? null, after: a ?? null };
  }
  return out;
}

export interface AuditEntryInput {
  action: string;
  target_type: string;
  target_id?: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Writes one row for a change `auth` made (nothing for accounts whose changes are not audited). */
export async function recordAudit(
  deps: Deps,
  auth: AuthContext | null,
  request: FastifyRequest | null,
  entry: AuditEntryInput,
): Promise<void> {
  const role = auth ? auditedRole(auth.user.roles) : null;
  if (!auth || !role) return;
  const user = auth.user;
  await deps.db.insert(auditLog).values({
    actor_id: user.id,
    actor_email: user.email,
    actor_role: role,
    tenant_owner_id: role === PROVIDER_ROLE ? user.id : null,
    tenant_organization_id: isOrganizationRole(role) ? user.organization_id : null,
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id == null ? null : String(entry.target_id),
    changes: changedFields(entry.before ?? null, entry.after ?? null),
    ip: request?.ip ?? null,
  });
}

/** Where the audited row lives: a table and the request field (and column) that name it. */
export interface AuditTarget {
  type: string;
  table?: PgTable;
  /** the request field naming the target ('id', 'slug', …) */
  key?: string;
  /** the table's column matching `key`; the column of the same name when omitted */
  column?: PgColumn;
  /**
   * What the row records when the request's fields do not say it: an import records its file and
   * counts (one row per import, never one per imported row), a checkout the order it opened. `key`
   * names the target (looked up in `table` like a request key); `after` is the recorded change.
   */
  describe?: (result: unknown, request: FastifyRequest) => { key?: unknown; after: Record<string, unknown> };
}

/**
 * The audit target of an Excel import: the uploaded file's name, the text fields sent beside it
 * (the training's slug, for example) and how many rows went in, read from the answer's `count`.
 */
export function importTarget(type: string, table?: PgTable, key?: string, column?: PgColumn): AuditTarget {
  return {
    type,
    table,
    key,
    column,
    describe: (result, request) => {
      const upload = uploadOf(request);
      const count = (result as { count?: unknown } | null)?.count;
      const keyValue = key ? upload?.fields[key] : undefined;
      return {
        key: keyValue,
        after: {
          file: upload?.filename || null,
          ...(key && keyValue !== undefined ? { [key]: keyValue } : {}),
          imported: typeof count === 'number' ? count : null,
        },
      };
    },
  };
}

/** The audit target of a form sent with a file: the text fields beside it (secrets redacted) and the file. */
export function uploadTarget(type: string, key?: string): AuditTarget {
  return {
    type,
    describe: (_result, request) => {
      const upload = uploadOf(request);
      return {
        key: key ? upload?.fields[key] : undefined,
        after: { ...upload?.fields, file: upload?.filename || null },
      };
    },
  };
}

async function loadRow(deps: Deps, target: AuditTarget, value: unknown): Promise<Record<string, unknown> | null> {
  // a key the handler has not validated yet (a form's JSON body) is looked up only when it can be one
  if (!target.table || (typeof value !== 'string' && typeof value !== 'number')) return null;
  const column =
    target.column ??
    ((target.table as unknown as Record<string, PgColumn>)[target.key ?? 'id'] as PgColumn | undefined);
  if (!column) return null;
  if (column.dataType === 'number' && !Number.isSafeInteger(Number(value))) return null;
  const rows = await deps.db
    .select()
    .from(target.table)
    .where(eq(column, value as never))
    .limit(1);
  return (rows[0] as Record<string, unknown> | undefined) ?? null;
}

function resultId(result: unknown): string | number | null {
  if (!result || typeof result !== 'object') return null;
  const r = result as Record<string, unknown>;
  const inner = (r.success && typeof r.success === 'object' ? r.success : r.data) as
    | Record<string, unknown>
    | undefined;
  const payment = r.payment && typeof r.payment === 'object' ? (r.payment as Record<string, unknown>) : undefined;
  for (const v of [r.id, r.slug, inner?.id, inner?.slug, payment?.id])
    if (typeof v === 'number' || typeof v === 'string') return v;
  return null;
}

/**
 * Calls whose change is made by an outside engine (a lab machine created, started, stopped or
 * deleted) that a rollback cannot undo: their handlers are not held in a transaction (a lab engine
 * may take seconds, and on PGlite a transaction holds the whole database); the row is written after
 * the change, and a row that cannot be written is reported, not turned into a refusal of a change
 * already made.
 */
const ENGINE_CALLS: ReadonlySet<string> = new Set([API.gcCreateVm.path, API.vmDelete.path, API.vmStartStop.path]);

/**
 * Wraps a call's handler so each successful change writes its audit row in the same transaction as
 * the change (an ambient transaction: every deps.db statement of the handler joins it, see
 * platform/db/ambient-transaction.ts). Both are committed or neither is: a row that cannot be written
 * refuses the change (a database fault answers 503 with Retry-After). The target row is read before
 * and after the change (when a table is given) and the changed fields recorded; without a table, the
 * request's fields are the "after". One line at the call's registration:
 *   defineCall(app, deps, API.x, audited(API.x, { type: 'training', table: trainings, key: 'slug' }, handler))
 */
export function audited<B, A extends AuthContext | null, R>(
  call: ApiCall,
  target: AuditTarget,
  handler: (ctx: CallContext<B, A>) => Promise<R>,
): (ctx: CallContext<B, A>) => Promise<R> {
  return async (ctx) => {
    const role = ctx.auth ? auditedRole(ctx.auth.user.roles) : null;
    if (!role) return handler(ctx);
    if (ENGINE_CALLS.has(call.path)) {
      const before = await beforeOf(ctx, target);
      const result = await handler(ctx);
      try {
        await writeRow(ctx, call, target, before, result);
      } catch (e) {
        ctx.request.log.error({ err: e, action: call.path }, 'audit row not written');
      }
      return result;
    }
    return ctx.deps.database.inTransaction(async () => {
      const before = await beforeOf(ctx, target);
      const result = await handler(ctx);
      await writeRow(ctx, call, target, before, result);
      return result;
    });
  };
}

function beforeOf<B, A extends AuthContext | null>(ctx: CallContext<B, A>, target: AuditTarget) {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  return loadRow(ctx.deps, target, target.key ? body[target.key] : undefined);
}

/** The row of one change: `before` read ahead of the handler, the rest from its answer and the request. */
async function writeRow<B, A extends AuthContext | null>(
  ctx: CallContext<B, A>,
  call: ApiCall,
  target: AuditTarget,
  before: Record<string, unknown> | null,
  result: unknown,
): Promise<void> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const keyValue = target.key ? body[target.key] : undefined;
  const entry = { action: call.path, target_type: target.type };
  if (target.describe) {
    const described = target.describe(result, ctx.request);
    const row = await loadRow(ctx.deps, target, described.key);
    const id = (row?.id as number | undefined) ?? described.key ?? resultId(result);
    await recordAudit(ctx.deps, ctx.auth, ctx.request, {
      ...entry,
      target_id: id as string | number | null,
      after: described.after,
    });
    return;
  }
  const id = keyValue ?? resultId(result);
  // a created target has no key in the request: its request fields are its "after"
  const after = target.table && keyValue !== undefined ? await loadRow(ctx.deps, target, keyValue) : body;
  await recordAudit(ctx.deps, ctx.auth, ctx.request, {
    ...entry,
    target_id: (before?.id as number | undefined) ?? (after?.id as number | undefined) ?? (id as string | null),
    before,
    after,
  });
}

/** Removes rows older than AUDIT_RETENTION_DAYS (0 keeps them forever); answers how many went. */
export async function pruneAudit(deps: Deps, now = new Date()): Promise<number> {
  const days = deps.config.AUDIT_RETENTION_DAYS;
  if (!days) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const gone = await deps.db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return gone.length;
}
