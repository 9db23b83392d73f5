import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Mail and SMS written by the embedded outbox adapters (and readable on the dev mailbox page). */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  channel: text('channel').notNull(),
  to: text('to').notNull(),
  subject: text('subject').notNull().default(''),
  text: text('text').notNull(),
  html: text('html'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
