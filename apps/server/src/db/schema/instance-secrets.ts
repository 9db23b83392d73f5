import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Signing keys that every instance on this database must share and that are not configured
 * (platform/instance-secrets.ts): the first instance to start stores each one, the others read it.
 */
export const instanceSecrets = pgTable('instance_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
