import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The audit trail: one row per change an admin or a tenant's manager makes. Append-only: no call
 * updates or deletes a row, a trigger refuses UPDATE, and only the retention job removes old rows.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor_id: integer('actor_id'),
    actor_email: text('actor_email'),
    actor_role: text('actor_role').notNull(),
    /** the tenant the actor acted for: a provider account, or an organization (null for the admin) */
    tenant_owner_id: integer('tenant_owner_id'),
    tenant_organization_id: integer('tenant_organization_id'),
    /** the API call's path */
    action: text('action').notNull(),
    target_type: text('target_type').notNull(),
    target_id: text('target_id'),
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>().notNull().default({}),
    ip: text('ip'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_owner_idx').on(t.tenant_owner_id, t.at),
    index('audit_log_org_idx').on(t.tenant_organization_id, t.at),
  ],
);
