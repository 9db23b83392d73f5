import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

/**
 * Recorded courses (spec 02 §3 Course, Module, Topic, Assigned course).
 *
 * Tenant: exactly one of `owner_user_id` (a provider account) or `organization_id` (an organization,
 * shared by the organization account and its org sub-admins) is set, as for trainings.
 * Money is integer paise (`amount_paise`); the wire shows rupees (`amount`).
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const courses = pgTable(
  'courses',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    amount_paise: integer('amount_paise').notNull().default(0),
    /** 1 paid, 0 free */
    is_paid: integer('is_paid').notNull().default(0),
    /** 1 public (in the catalogue), 0 not */
    is_public: integer('is_public').notNull().default(0),
    description: text('description'),
    /** purchases of the course, kept with each paid enrolment: the catalogue orders by it on every view */
    purchase_count: integer('purchase_count').notNull().default(0),
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // a tenant's list is newest first: the page reads its 20 rows off the index (decision 0047)
    index('courses_owner_idx').on(t.owner_user_id, t.created_at, t.id),
    index('courses_org_idx').on(t.organization_id, t.created_at, t.id),
    index('courses_public_idx').on(t.is_public, t.id),
    index('courses_catalogue_idx').on(t.is_public, t.is_paid, t.purchase_count, t.created_at),
  ],
);

export const courseModules = pgTable(
  'course_modules',
  {
    id: serial('id').primaryKey(),
    course_id: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    created_at: createdAt(),
  },
  (t) => [index('course_modules_course_idx').on(t.course_id, t.position)],
);

/** One caption track of a topic's video: its language (BCP 47, e.g. 'en'), the label the player shows, the file. */
export interface CaptionTrackRow {
  language: string;
  label: string;
  key: string;
  bytes: number;
  created_at: string;
}

export const courseTopics = pgTable(
  'course_topics',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    module_id: integer('module_id')
      .notNull()
      .references(() => courseModules.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    position: integer('position').notNull().default(0),
    /** the uploaded original in the file store */
    video_key: text('video_key'),
    video_bytes: integer('video_bytes'),
    /** 'processing' | 'ready' | 'failed' */
    video_status: text('video_status').notNull().default('processing'),
    video_error: text('video_error'),
    /** whole seconds, from ffprobe */
    duration_seconds: integer('duration_seconds'),
    poster_key: text('poster_key'),
    /** the WebVTT caption tracks of the video, one per language, files in the file store (issue 21) */
    caption_tracks: jsonb('caption_tracks').$type<CaptionTrackRow[]>().notNull().default([]),
    /** the transcript shown under the player, when the author gave one (plain text) */
    transcript: text('transcript'),
    /** folder of the HLS package (master.m3u8, one playlist per rendition, segments) */
    hls_prefix: text('hls_prefix'),
    /** heights of the renditions, e.g. [360, 240] */
    renditions: integer('renditions').array(),
    /** every file of the package under hls_prefix (poster, playlists, segments), for serving and deleting */
    media_files: text('media_files').array(),
    created_at: createdAt(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('course_topics_module_idx').on(t.module_id, t.position)],
);

/**
 * A learner's access to a course: assigned by a manager (with a window) or bought in the catalogue
 * (`source` 'purchase', no window). One row per learner and course.
 */
export const courseEnrolments = pgTable(
  'course_enrolments',
  {
    id: serial('id').primaryKey(),
    course_id: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'assigned' | 'purchase' */
    source: text('source').notNull().default('assigned'),
    start_date: ts('start_date'),
    end_date: ts('end_date'),
    /** 0 incomplete, 1 complete */
    is_complete: integer('is_complete').notNull().default(0),
    created_at: createdAt(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('course_enrolments_course_user_idx').on(t.course_id, t.user_id),
    index('course_enrolments_user_idx').on(t.user_id),
  ],
);

/**
 * What one learner watched of one topic: seconds credited (never more than the video has, never faster
 * than wall-clock time between reports) and where they stopped. Complete at 90 % watched.
 */
export const courseTopicProgress = pgTable(
  'course_topic_progress',
  {
    id: serial('id').primaryKey(),
    topic_id: integer('topic_id')
      .notNull()
      .references(() => courseTopics.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seconds_watched: integer('seconds_watched').notNull().default(0),
    last_position: integer('last_position').notNull().default(0),
    /** 0 incomplete, 1 complete */
    is_complete: integer('is_complete').notNull().default(0),
    last_report_at: ts('last_report_at'),
    created_at: createdAt(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('course_topic_progress_topic_user_idx').on(t.topic_id, t.user_id),
    index('course_topic_progress_user_idx').on(t.user_id),
  ],
);

/**
 * A resumable (tus) video upload under way or finished but not yet used by a topic. Its bytes are
 * in the file store under `key`; the offset is the stored size. A topic that uses the upload takes
 * the file over and removes this row; an upload left alone expires (course-upload-expiry job).
 */
export const courseUploads = pgTable(
  'course_uploads',
  {
    /** random hex, also the last segment of the upload's URL */
    id: text('id').primaryKey(),
    owner_user_id: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** declared Upload-Length in bytes */
    size: bigint('size', { mode: 'number' }).notNull(),
    /** the tus Upload-Metadata (filename, filetype) */
    metadata: jsonb('metadata').$type<Record<string, string | null>>().notNull().default({}),
    /** set once every byte arrived and the content was checked to be a video */
    finished_at: ts('finished_at'),
    expires_at: ts('expires_at').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('course_uploads_owner_idx').on(t.owner_user_id), index('course_uploads_expires_idx').on(t.expires_at)],
);
