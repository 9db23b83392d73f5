import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

/**
 * Live trainings (spec 01 §3 Training / Training user, spec 02 §3 syllabus topic / attendance).
 *
 * Tenant: exactly one of `owner_user_id` (a provider account) or `organization_id` (an organization,
 * shared by the organization account and its org sub-admins) is set.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const trainings = pgTable(
  'trainings',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    /** meeting id: random, URL-safe, unique */
    link: text('link').notNull().unique(),
    name: text('name').notNull(),
    start_date: ts('start_date').notNull(),
    end_date: ts('end_date').notNull(),
    total_training_day: integer('total_training_day').notNull(),
    number_of_participants: integer('number_of_participants').notNull(),
    description: text('description'),
    requirements: text('requirements').array().notNull().default(sql`'{}'::text[]`),
    /** 0 not public, 1 public */
    is_public: integer('is_public').notNull().default(0),
    /** 0 not started, 1 started, 2 completed */
    status: integer('status').notNull().default(0),
    /** 0/1: training-wide certificate download right */
    is_download_certificate: integer('is_download_certificate').notNull().default(0),
    /** tenant when created by a provider: the provider account */
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** tenant when created by an organization or one of its org sub-admins */
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    /** the account that created it (provider, organization or org_subadmin) */
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** 0/1 flags chosen on the Cost tab */
    pre_assessment: integer('pre_assessment').notNull().default(0),
    post_assessment: integer('post_assessment').notNull().default(0),
    /** computed on the server from the service prices */
    cost: numeric('cost', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    /**
     * true once the end date has passed (never before): set by a trigger on every write of end_date
     * and by the periodic mark (trainings/past.ts), so that the upcoming list's index holds no ended
     * training. Reads still check end_date: a training may have ended since the last mark.
     */
    past: boolean('past').notNull().default(false),
    created_at: createdAt(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // the upcoming list (start date, then id) without the ended trainings, which sort first: its first
    // page reads 20 entries however many trainings ended before; end_date lets its count skip the rows
    index('trainings_owner_upcoming_idx')
      .on(t.owner_user_id, t.start_date, t.id, t.end_date)
      .where(sql`status in (0, 1) and not past`),
    index('trainings_org_upcoming_idx')
      .on(t.organization_id, t.start_date, t.id, t.end_date)
      .where(sql`status in (0, 1) and not past`),
    index('trainings_owner_end_idx').on(t.owner_user_id, t.end_date),
    index('trainings_org_end_idx').on(t.organization_id, t.end_date),
    // the upcoming list's order (start date, then id), read from the index a page at a time
    index('trainings_owner_start_idx').on(t.owner_user_id, t.start_date, t.id),
    index('trainings_org_start_idx').on(t.organization_id, t.start_date, t.id),
  ],
);

/** Enrolments: one learner account in one training. */
export const trainingUsers = pgTable(
  'training_users',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 0/1: the certificate was e-mailed */
    send_email_certificate: integer('send_email_certificate').notNull().default(0),
    /** 0/1: the learner may download the certificate */
    is_download_certificate: integer('is_download_certificate').notNull().default(0),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('training_users_training_user_unique').on(t.training_id, t.user_id),
    index('training_users_user_idx').on(t.user_id, t.training_id),
  ],
);

/** Trainer accounts assigned to a training. */
export const trainingTrainers = pgTable(
  'training_trainers',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    trainer_id: integer('trainer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('training_trainers_unique').on(t.training_id, t.trainer_id),
    index('training_trainers_trainer_idx').on(t.trainer_id),
  ],
);

/** Syllabus topics of a training. status: 0 Schedule, 1 Starting, 2 Completed. */
export const syllabusTopics = pgTable(
  'syllabus_topics',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    session_topic: text('session_topic').notNull(),
    /** planned, or the actual start when the topic is started without a plan */
    start_time: ts('start_time'),
    end_time: ts('end_time'),
    started_at: ts('started_at'),
    ended_at: ts('ended_at'),
    /** actual duration in minutes, set when completed */
    no_of_min: integer('no_of_min').notNull().default(0),
    status: integer('status').notNull().default(0),
    recording_url: text('recording_url'),
    created_at: createdAt(),
  },
  (t) => [index('syllabus_topics_training_idx').on(t.training_id)],
);

export const topicRatings = pgTable(
  'topic_ratings',
  {
    id: serial('id').primaryKey(),
    topic_id: integer('topic_id')
      .notNull()
      .references(() => syllabusTopics.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('topic_ratings_topic_user_unique').on(t.topic_id, t.user_id)],
);

/**
 * Join/leave records of an enrolment. `topic_id` null = a topic-less join of the training
 * (conference join status). At most one open (left_at null) row per enrolment and topic.
 */
export const trainingAttendances = pgTable(
  'training_attendances',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    training_user_id: integer('training_user_id')
      .notNull()
      .references(() => trainingUsers.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topic_id: integer('topic_id').references(() => syllabusTopics.id, { onDelete: 'cascade' }),
    joined_at: ts('joined_at').notNull().defaultNow(),
    left_at: ts('left_at'),
    minutes: integer('minutes').notNull().default(0),
  },
  (t) => [
    index('training_attendances_tu_idx').on(t.training_user_id),
    index('training_attendances_training_idx').on(t.training_id),
    index('training_attendances_topic_idx').on(t.topic_id),
    uniqueIndex('training_attendances_open_unique')
      .on(t.training_user_id, sql`coalesce(${t.topic_id}, 0)`)
      .where(sql`${t.left_at} is null`),
  ],
);
