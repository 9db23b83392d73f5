import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { vms } from './labs';
import { syllabusTopics, trainings } from './trainings';

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A lab tied to a live training's schedule: started `lead_minutes` before each session topic
 * (null: the tenant's default on its lab account) and stopped `grace_minutes` after it ends.
 * `vm_id` null ties the labs assigned to the training's enrolled learners, as they are at each topic.
 */
export const labSchedules = pgTable(
  'lab_schedules',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    vm_id: integer('vm_id').references(() => vms.id, { onDelete: 'cascade' }),
    lead_minutes: integer('lead_minutes'),
    grace_minutes: integer('grace_minutes').notNull().default(15),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lab_schedules_training_vm_unique').on(t.training_id, sql`coalesce(${t.vm_id}, 0)`)],
);

/**
 * What the schedule did, once per tie, topic, lab and action ('start' | 'stop'): the unique index
 * is what keeps a restart (or two server processes) from starting or stopping a lab twice for the
 * same topic. `outcome` null when done, else why it was refused (a monthly cap, the engine).
 */
export const labScheduleEvents = pgTable(
  'lab_schedule_events',
  {
    id: serial('id').primaryKey(),
    schedule_id: integer('schedule_id')
      .notNull()
      .references(() => labSchedules.id, { onDelete: 'cascade' }),
    topic_id: integer('topic_id')
      .notNull()
      .references(() => syllabusTopics.id, { onDelete: 'cascade' }),
    vm_id: integer('vm_id')
      .notNull()
      .references(() => vms.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    at: ts('at').notNull(),
    outcome: text('outcome'),
  },
  (t) => [
    uniqueIndex('lab_schedule_events_once').on(t.schedule_id, t.topic_id, t.vm_id, t.action),
    index('lab_schedule_events_vm_idx').on(t.vm_id),
  ],
);
