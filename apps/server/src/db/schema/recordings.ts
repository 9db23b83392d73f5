import { bigint, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { syllabusTopics, trainings } from './trainings';

/**
 * Meeting recordings uploaded from the browser in ordered chunks. `storage_key` names the file in
 * the file store (adapters/files). status: 'uploading' until /recording-finish, then 'ready'.
 */
export const recordings = pgTable(
  'recordings',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    topic_id: integer('topic_id').references(() => syllabusTopics.id, { onDelete: 'set null' }),
    mime: text('mime').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    /** the next chunk index expected */
    chunks: integer('chunks').notNull().default(0),
    status: text('status', { enum: ['uploading', 'ready'] })
      .notNull()
      .default('uploading'),
    storage_key: text('storage_key').notNull().unique(),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('recordings_training_idx').on(t.training_id), index('recordings_topic_idx').on(t.topic_id)],
);
