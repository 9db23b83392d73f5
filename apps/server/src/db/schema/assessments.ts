import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { trainings } from './trainings';

/**
 * Question bank and assessments (spec 02 §3 Question, §4 'Assessment test').
 *
 * A question belongs to one bank: a provider account (`owner_user_id`), an organization
 * (`organization_id`) or the shared bank kept by the admin (both null). `bank` repeats that as one
 * key ('p:12', 'o:3', 'shared') so duplicates can be refused by a unique index.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    bank: text('bank').notNull(),
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    language_identified: text('language_identified').notNull(),
    question_category: text('question_category').notNull(),
    question_type: text('question_type').notNull(),
    question: text('question').notNull(),
    option1: text('option1').notNull(),
    option2: text('option2').notNull(),
    option3: text('option3').notNull(),
    option4: text('option4').notNull(),
    /** 1 to 4 */
    correct_option: integer('correct_option').notNull(),
    /** Beginner, Intermediate or Advanced */
    level: text('level').notNull(),
    /** lower-cased, space-collapsed language and question: what makes two questions the same */
    dedupe_key: text('dedupe_key').notNull(),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('questions_bank_dedupe_unique').on(t.bank, t.dedupe_key),
    index('questions_bank_language_level_idx').on(t.bank, t.language_identified, t.level),
    // a bank newest first: the question bank's default page (decision 0047)
    index('questions_bank_id_idx').on(t.bank, t.id),
  ],
);

/** The pre (type 1) or post (type 2) test of a training: at most one of each. */
export const assessments = pgTable(
  'assessments',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    type: integer('type').notNull(),
    /** 'random' (questions picked by hand) or 'automatic' (drawn per learner) */
    mode: text('mode').notNull(),
    /** time allowed, in seconds */
    seconds: integer('seconds').notNull(),
    language_identified: text('language_identified'),
    beginner_question: integer('beginner_question').notNull().default(0),
    intermediate_question: integer('intermediate_question').notNull().default(0),
    advanced_question: integer('advanced_question').notNull().default(0),
    /** the bank the automatic draw takes from (the tenant's bank key) */
    bank: text('bank').notNull(),
    /** seed of the per-learner draw (automatic tests) */
    seed: text('seed').notNull(),
    /** 0/1: learners see which answers were right after submitting */
    show_answers: integer('show_answers').notNull().default(0),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assessments_training_type_unique').on(t.training_id, t.type)],
);

/** The questions picked by hand for a random-mode test, in order. */
export const assessmentQuestions = pgTable(
  'assessment_questions',
  {
    id: serial('id').primaryKey(),
    assessment_id: integer('assessment_id')
      .notNull()
      .references(() => assessments.id, { onDelete: 'cascade' }),
    question_id: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('assessment_questions_unique').on(t.assessment_id, t.question_id),
    index('assessment_questions_question_idx').on(t.question_id),
  ],
);

/** One learner's attempt at a test. The server's clock decides: `deadline_at` is fixed at start. */
export const assessmentAttempts = pgTable(
  'assessment_attempts',
  {
    id: serial('id').primaryKey(),
    assessment_id: integer('assessment_id')
      .notNull()
      .references(() => assessments.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the learner's questions in the learner's order */
    question_ids: integer('question_ids').array().notNull().default(sql`'{}'::int[]`),
    started_at: ts('started_at').notNull().defaultNow(),
    deadline_at: ts('deadline_at').notNull(),
    submitted_at: ts('submitted_at'),
    score: integer('score'),
    total: integer('total').notNull(),
    /** 0/1: the manager allowed one more attempt after this one */
    retake_allowed: integer('retake_allowed').notNull().default(0),
  },
  (t) => [index('assessment_attempts_learner_idx').on(t.assessment_id, t.user_id, t.id)],
);

/** The answers of an attempt, saved as the learner goes. */
export const assessmentAnswers = pgTable(
  'assessment_answers',
  {
    id: serial('id').primaryKey(),
    attempt_id: integer('attempt_id')
      .notNull()
      .references(() => assessmentAttempts.id, { onDelete: 'cascade' }),
    question_id: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    answer: integer('answer').notNull(),
    /** set when the attempt is submitted */
    is_correct: integer('is_correct'),
    answered_at: ts('answered_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('assessment_answers_unique').on(t.attempt_id, t.question_id),
    index('assessment_answers_question_idx').on(t.question_id),
  ],
);

/**
 * Extra time on a training's tests for one learner (an accommodation the provider sets, issue 21),
 * in percent of each test's time; read when an attempt starts.
 */
export const assessmentTimeExtensions = pgTable(
  'assessment_time_extensions',
  {
    id: serial('id').primaryKey(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    extra_percent: integer('extra_percent').notNull(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assessment_time_extensions_learner_unique').on(t.training_id, t.user_id)],
);
