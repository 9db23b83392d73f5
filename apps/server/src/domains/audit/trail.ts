import { AUDIT_EXPORT_MAX_ROWS, type AUDIT_SORTS, type AuditEntry } from '@trainlab/contract';
import { and, asc, desc, eq, gte, ilike, lt, type SQL } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { auditedRole } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { forbidden } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import {
  cappedCount,
  countWhere,
  likePattern,
  orderFor,
  pageWindow,
  searchWhere,
  toCountedPage,
} from '../../platform/http/paging';
import { isSensitiveField, REDACTED, redactSensitive } from '../../platform/sensitive-fields';
import { isOrganizationRole, PROVIDER_ROLE } from '../../platform/tenancy';

export interface AuditFilters {
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  from?: string;
  to?: string;
}

/** The rows the caller may read: every row for the admin, a manager's own tenant's rows otherwise. */
function visibleTo(auth: AuthContext): SQL | undefined {
  const role = auditedRole(auth.user.roles);
  if (role === 'admin') return undefined;
  if (role === PROVIDER_ROLE) return eq(auditLog.tenant_owner_id, auth.user.id);
  if (isOrganizationRole(role) && auth.user.organization_id) {
    return eq(auditLog.tenant_organization_id, auth.user.organization_id);
  }
  throw forbidden();
}

function filtersWhere(auth: AuthContext, f: AuditFilters): SQL | undefined {
  const parts: (SQL | undefined)[] = [visibleTo(auth)];
  if (f.actor) {
    parts.push(
      /^\d+$/.test(f.actor)
        ? eq(auditLog.actor_id, Number(f.actor))
        : ilike(auditLog.actor_email, likePattern(f.actor)),
    );
  }
  if (f.action) parts.push(ilike(auditLog.action, likePattern(f.action)));
  if (f.target_type) parts.push(eq(auditLog.target_type, f.target_type));
  if (f.target_id) parts.push(eq(auditLog.target_id, f.target_id));
  // whole days in UTC: from the start of `from` to the end of `to`
  if (f.from) parts.push(gte(auditLog.at, new Date(`${f.from}T00:00:00Z`)));
  if (f.to) parts.push(lt(auditLog.at, new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000)));
  return and(...parts.filter(Boolean));
}

/** Rows written before a field was named sensitive are redacted on the way out (page and export). */
function redactChanges(changes: AuditEntry['changes']): AuditEntry['changes'] {
  if (!changes || typeof changes !== 'object') return changes;
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const [field, c] of Object.entries(changes as Record<string, { before: unknown; after: unknown }>)) {
    const hide = (v: unknown) => (v === undefined || v === null ? v : REDACTED);
    out[field] = isSensitiveField(field)
      ? { before: hide(c?.before), after: hide(c?.after) }
      : { before: redactSensitive(c?.before), after: redactSensitive(c?.after) };
  }
  return out as AuditEntry['changes'];
}

const toEntry = (r: typeof auditLog.$inferSelect): AuditEntry => ({
  id: r.id,
  at: r.at.toISOString(),
  actor_id: r.actor_id,
  actor_email: r.actor_email,
  actor_role: r.actor_role,
  action: r.action,
  target_type: r.target_type,
  target_id: r.target_id,
  changes: redactChanges(r.changes as AuditEntry['changes']),
  ip: r.ip,
});

export async function auditPage(
  deps: Deps,
  auth: AuthContext,
  q: AuditFilters & { page?: number; per_page?: number; search?: string; sort?: string },
) {
  const window = pageWindow(q);
  const where = and(
    filtersWhere(auth, q),
    searchWhere(q.search, [auditLog.action, auditLog.target_type, auditLog.target_id, auditLog.actor_email]),
  );
  const rows = await deps.db
    .select({ row: auditLog, capped_total: cappedCount(auditLog, where, window) })
    .from(auditLog)
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort as (typeof AUDIT_SORTS)[number] | undefined,
        { at: auditLog.at, action: auditLog.action, actor_role: auditLog.actor_role },
        [desc(auditLog.at)],
        auditLog.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toCountedPage(
    rows,
    window,
    (r) => toEntry(r.row),
    (limit) => countWhere(deps.db, auditLog, where, limit),
  );
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor_email',
  'actor_role',
  'action',
  'target_type',
  'target_id',
  'changes',
  'ip',
] as const;

/** One CSV field: quoted when needed; a leading = + - @ is defused so a spreadsheet never runs it. */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export async function auditCsv(deps: Deps, auth: AuthContext, f: AuditFilters): Promise<string> {
  const rows = await deps.db
    .select()
    .from(auditLog)
    .where(filtersWhere(auth, f))
    .orderBy(asc(auditLog.at), asc(auditLog.id))
    .limit(AUDIT_EXPORT_MAX_ROWS);
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const e = toEntry(r);
    lines.push(CSV_COLUMNS.map((c) => csvField(e[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
