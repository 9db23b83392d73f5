import { z } from 'zod';
import { listFields, pagedList } from './paging.js';

/** One row of the audit trail (append-only; secrets and passwords are never written). */
export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_id: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  actor_role: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** the changed fields: `{ field: { before, after } }` */
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const day = z.preprocess(
  blank,
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'The date must be YYYY-MM-DD.')
    .optional(),
);
const text = z.preprocess(blank, z.string().trim().max(100).optional());

/** Filters of the audit screen and its CSV export: actor (id or e-mail part), action, target, days. */
export const auditFilters = {
  actor: text,
  action: text,
  target_type: text,
  target_id: text,
  from: day,
  to: day,
};
export const AUDIT_SORTS = ['at', 'action', 'actor_role'] as const;
export const auditListRequest = z.object({ ...listFields(AUDIT_SORTS), ...auditFilters });
export const auditPage = pagedList(auditEntry);
export const auditExportRequest = z.object(auditFilters);
/** The CSV export holds at most this many rows (narrow the filters for more). */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;
export const auditCsv = z.any().meta({ description: 'text/csv attachment' });
