import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const linesOfBusiness = pgTable('lines_of_business', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  created_at: createdAt(),
});

/** An organization (tenant) as registered through /register-organization. */
export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  parent_id: integer('parent_id'),
  org_domain: text('org_domain'),
  sp_link: text('sp_link'),
  ip_link: text('ip_link'),
  description: text('description'),
  /** 1 active, 0 deactivated */
  status: integer('status').notNull().default(1),
  /** 0 waiting, 1 approved */
  is_approved: integer('is_approved').notNull().default(0),
  created_at: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    email: text('email').notNull(),
    mobile_no: text('mobile_no'),
    password_hash: text('password_hash'),
    roles: text('roles').array().notNull(),
    user_type: integer('user_type').notNull(),
    /** 1 active, 0 deactivated */
    status: integer('status').notNull().default(1),
    /** 0 waiting for approval, 1 approved, 2 rejected */
    is_approved: integer('is_approved').notNull().default(1),
    organization_id: integer('organization_id').references(() => organizations.id),
    /** the provider account a provider_user belongs to */
    provider_id: integer('provider_id'),
    lob_id: integer('lob_id').references(() => linesOfBusiness.id),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    // tenant lists read newest first by id: the index gives them in order (no sort of the tenant)
    index('users_organization_idx').on(t.organization_id, t.id),
    index('users_provider_idx').on(t.provider_id, t.id),
  ],
);

/** Sign-in sessions. Only a SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.user_id)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.user_id)],
);
