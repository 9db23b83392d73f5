import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

/**
 * Cloud labs (spec 02 §3 VM, VM usage). Tenant columns as for trainings. Money is integer paise.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const vms = pgTable(
  'vms',
  {
    id: serial('id').primaryKey(),
    /** vm_name: unique, URL-safe; /vm/{name} */
    vm_name: text('vm_name').notNull().unique(),
    name: text('name').notNull(),
    /** 'ubuntu' | 'windows' (spec 01 §3 operating systems) */
    image: text('image').notNull(),
    /** 'ssh' | 'rdp' */
    protocol: text('protocol').notNull(),
    zone: text('zone').notNull(),
    ram: integer('ram').notNull(),
    storage: integer('storage').notNull(),
    /** 0 Create, 1 Start, 2 Stop, 3 Deleted */
    status: integer('status').notNull().default(0),
    /** the lab engine that runs it ('local' | 'gce') and its own reference */
    engine: text('engine').notNull(),
    engine_ref: text('engine_ref'),
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    assigned_user_id: integer('assigned_user_id').references(() => users.id, { onDelete: 'set null' }),
    assigned_at: ts('assigned_at'),
    created_at: createdAt(),
    deleted_at: ts('deleted_at'),
    /** the lab's login name and its generated password (encrypted with deps.cipher) */
    username: text('username'),
    password_enc: text('password_enc'),
    /** last connection or input through our proxy: the idle stop counts from here */
    last_activity_at: ts('last_activity_at'),
    /** open connections through our proxy (the idle stop waits while any is open) */
    connections: integer('connections').notNull().default(0),
  },
  (t) => [
    // a tenant's list is newest first: the page reads its 20 rows off the index (decision 0047)
    index('vms_owner_idx').on(t.owner_user_id, t.created_at, t.id),
    index('vms_org_idx').on(t.organization_id, t.created_at, t.id),
    index('vms_assigned_idx').on(t.assigned_user_id, t.id),
  ],
);

/**
 * Metering: one row per assignment and per run (status 1 Assign, 2 Start, 3 Stop). A run is opened
 * at start (vm_start, status 2) and closed at stop (vm_stop, used_min, cost_paise, status 3), always
 * with server timestamps. `payment_id` is set when a VM bill that covers the row is paid.
 */
export const vmUsages = pgTable(
  'vm_usages',
  {
    id: serial('id').primaryKey(),
    vm_id: integer('vm_id')
      .notNull()
      .references(() => vms.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: integer('status').notNull(),
    vm_start: ts('vm_start'),
    vm_stop: ts('vm_stop'),
    used_min: integer('used_min').notNull().default(0),
    cost_paise: integer('cost_paise').notNull().default(0),
    payment_id: integer('payment_id'),
    created_at: createdAt(),
    /**
     * While a run is open: cost accrued at earlier prices (micro-paise) and when the prices in force
     * began; a price change folds the elapsed part in, so every minute is billed at its own price.
     */
    accrued_micropaise: bigint('accrued_micropaise', { mode: 'number' }).notNull().default(0),
    rate_since: ts('rate_since'),
  },
  (t) => [
    index('vm_usages_vm_idx').on(t.vm_id, t.id),
    index('vm_usages_unpaid_idx').on(t.payment_id, t.vm_id),
    /** at most one open run per lab: a restart can never open a second meter */
    uniqueIndex('vm_usages_open_run_idx')
      .on(t.vm_id)
      .where(sql`${t.status} = 2`),
  ],
);

/**
 * The tenant's lab account (spec 02 §3 VM account; /register-cloud-account): one per provider or
 * organization, its password hashed. Also holds the tenant's lab rules: idle stop and monthly caps.
 */
export const labAccounts = pgTable('lab_accounts', {
  id: serial('id').primaryKey(),
  owner_user_id: integer('owner_user_id')
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  organization_id: integer('organization_id')
    .unique()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  username: text('username').notNull(),
  email: text('email').notNull(),
  first_name: text('first_name').notNull(),
  last_name: text('last_name').notNull(),
  password_hash: text('password_hash').notNull(),
  authorized_at: ts('authorized_at'),
  /** stop a running lab after this many seconds without connection or input (null: never) */
  idle_stop_seconds: integer('idle_stop_seconds').default(1800),
  /** per calendar month (UTC): running hours and spend in paise; null: no cap */
  cap_hours_month: integer('cap_hours_month'),
  cap_paise_month: integer('cap_paise_month'),
  /** labs tied to a training's schedule start this many minutes before a topic (unless the tie says) */
  schedule_lead_minutes: integer('schedule_lead_minutes').notNull().default(15),
  /** set by the admin (master data): labs running at once and their RAM in GB; null: no limit */
  max_running_labs: integer('max_running_labs'),
  max_running_ram_gb: integer('max_running_ram_gb'),
  created_at: createdAt(),
});
