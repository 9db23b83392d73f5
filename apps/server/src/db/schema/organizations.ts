import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A per-organization pick list (departments, branches, sections): names unique within one organization. */
const orgUnitTable = <N extends string>(name: N) =>
  pgTable(
    name,
    {
      id: serial('id').primaryKey(),
      organization_id: integer('organization_id')
        .notNull()
        .references(() => organizations.id, { onDelete: 'cascade' }),
      name: text('name').notNull(),
      created_at: createdAt(),
    },
    (t) => [uniqueIndex(`${name}_org_name_unique`).on(t.organization_id, sql`lower(${t.name})`)],
  );

export const departments = orgUnitTable('departments');
export const branches = orgUnitTable('branches');
export const sections = orgUnitTable('sections');

/** An organization's proposal of a sub-admin; the admin accepts (status 1) or rejects (status 2). */
export const orgSubadminRequests = pgTable(
  'org_subadmin_requests',
  {
    /** travels as `odid` */
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    branch_id: integer('branch_id').references(() => branches.id, { onDelete: 'set null' }),
    department_id: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    section_id: integer('section_id').references(() => sections.id, { onDelete: 'set null' }),
    /** 0 pending, 1 accepted, 2 rejected */
    status: integer('status').notNull().default(0),
    created_at: createdAt(),
    decided_at: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('org_subadmin_requests_org_status_idx').on(t.organization_id, t.status)],
);

/** Where a member account sits inside its organization (kept off the users table). */
export const orgMemberships = pgTable(
  'org_memberships',
  {
    user_id: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    branch_id: integer('branch_id').references(() => branches.id, { onDelete: 'set null' }),
    department_id: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    section_id: integer('section_id').references(() => sections.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [index('org_memberships_org_idx').on(t.organization_id)],
);
