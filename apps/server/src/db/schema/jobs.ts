import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Durable background jobs (mail with certificates, later VM idle stop, billing). A job is claimed
 * with FOR UPDATE SKIP LOCKED, so several server processes can share the table.
 *
 * status: queued -> running -> done, or back to queued with a later run_at (retry with backoff),
 * or failed after the last attempt. While running, run_at is the lease end: a job whose process
 * died is claimed again once its lease has passed.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    run_at: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    last_error: text('last_error'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_due_idx').on(t.status, t.run_at)],
);

/**
 * The mails a job has sent, one row per message (its recipient and subject, and which of that pair it
 * was in the run): a job run again after its runner died skips what it already sent.
 */
export const jobMails = pgTable(
  'job_mails',
  {
    job_id: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    mail_key: text('mail_key').notNull(),
    sent_at: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.job_id, t.mail_key] })],
);
