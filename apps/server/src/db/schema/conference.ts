import { integer, jsonb, pgTable, serial, timestamp } from 'drizzle-orm/pg-core';
import { trainings } from './trainings';

/** The latest whiteboard scene of a training's conference (/white-board, moderator only). */
export const whiteboards = pgTable('whiteboards', {
  id: serial('id').primaryKey(),
  training_id: integer('training_id')
    .notNull()
    .unique()
    .references(() => trainings.id, { onDelete: 'cascade' }),
  scene: jsonb('scene').$type<Record<string, unknown>>().notNull(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
