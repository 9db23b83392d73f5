import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { trainingUsers } from './trainings';

/**
 * Certificates of completion. A row is created the first time a certificate is needed for an
 * enrolment; it keeps the printed facts (names, dates, issuer, signatory) stable afterwards.
 */
export const certificates = pgTable('certificates', {
  id: serial('id').primaryKey(),
  /** public reference printed on the certificate, e.g. TL-2026-7K4QX9 */
  ref_no: text('ref_no').notNull().unique(),
  training_user_id: integer('training_user_id')
    .notNull()
    .unique()
    .references(() => trainingUsers.id, { onDelete: 'cascade' }),
  issued_at: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  user_name: text('user_name').notNull(),
  training_name: text('training_name').notNull(),
  issuer_name: text('issuer_name').notNull(),
  signatory_name: text('signatory_name').notNull().default(''),
  signatory_title: text('signatory_title').notNull().default(''),
  start_date: timestamp('start_date', { withTimezone: true }).notNull(),
  end_date: timestamp('end_date', { withTimezone: true }).notNull(),
});

/**
 * Per-tenant certificate settings (a provider account or an organization): who issues, who signs,
 * and the attendance a learner needs before downloading.
 */
export const certificateSettings = pgTable(
  'certificate_settings',
  {
    id: serial('id').primaryKey(),
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    issuer_name: text('issuer_name').notNull(),
    signatory_name: text('signatory_name').notNull(),
    signatory_title: text('signatory_title').notNull(),
    /** 0 = no attendance rule */
    min_attendance_percent: integer('min_attendance_percent').notNull().default(0),
    /** 0 = no post-test rule; else the post-test percent a learner needs (when the training has a post-test) */
    min_post_score_percent: integer('min_post_score_percent').notNull().default(0),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('certificate_settings_owner_unique').on(t.owner_user_id),
    uniqueIndex('certificate_settings_org_unique').on(t.organization_id),
  ],
);
