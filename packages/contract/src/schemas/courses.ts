import { z } from 'zod';
import { ALWAYS, flag, idField, optionalText, requiredText } from '../validation.js';
import { listFields, listRequest, pagedList } from './paging.js';
import { startsNotBeforeNow } from './trainings.js';

/**
 * Recorded courses (spec 02 §2 'Recorded courses', §3 Course, Module, Topic, Assigned course).
 * Amounts travel in rupees (stored as integer paise); dates as ISO 8601 strings.
 */
export const COURSE_MSG = {
  courseCreated: 'Record Added Successfully!',
  topicCreated: 'Record Added Successfully!',
  topicUpdated: 'Record updated successfully!',
  topicDeleted: 'Course Deleted Successfully!',
  assigned: 'Course assigned successfully!',
  processingRetried: 'The video is being processed again.',
  videoRequired: 'The course url field is required.',
  videoNotVideo: 'The course url must be a video file.',
  videoUnreadable: 'The video file is empty, truncated or unreadable.',
  videoProcessing: 'The video is being processed.',
  videoNotReady: 'The video is not ready yet.',
  ffmpegMissing: 'Video processing is unavailable: ffmpeg/ffprobe is not installed on the server.',
  outsideWindow: 'This course is not available to you at this time.',
  notFailed: 'Only a video whose processing failed can be retried.',
  uploadNotFinished: 'The video upload is not finished yet.',
} as const;

/**
 * Resumable video uploads (tus 1.0.0: POST to create, HEAD for the offset, PATCH for bytes, DELETE
 * to cancel) under /api/course-uploads; the same roles as /create-all-course, each upload its
 * uploader's own. A finished upload is named by `tus_upload_id` in /create-all-course or /update-all-course.
 */
export const COURSE_UPLOAD_PATH = 'course-uploads';
export const COURSE_UPLOAD_ROLES = ['provider', 'organization', 'org_subadmin'] as const;

/**
 * Endpoints that speak a protocol of their own instead of our JSON calls (and so are not in the
 * permission table of calls), with the same access rule a call has.
 */
export const PROTOCOL_ENDPOINTS = [
  {
    path: COURSE_UPLOAD_PATH,
    access: COURSE_UPLOAD_ROLES,
    protocol: 'tus 1.0.0 (creation, termination, expiration)',
    description: 'Resumable course video uploads; HEAD/PATCH/DELETE on /api/course-uploads/{id} for the uploader only.',
  },
] as const;

/** Topic video states: uploaded and waiting/being packaged, playable, or failed with a reason. */
export const VIDEO_STATUS = ['processing', 'ready', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUS)[number];
/** A topic is complete once this share of its duration has been watched. */
export const TOPIC_COMPLETE_RATIO = 0.9;
/** Default largest video upload (bytes); the server's COURSE_VIDEO_MAX_BYTES decides. */
export const COURSE_VIDEO_DEFAULT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const slugField = () => requiredText(200);
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const dateField = (field: string) =>
  z.preprocess(
    blank,
    z
      .string({ error: (i) => (i.input === undefined ? `The ${field} field is required.` : undefined) })
      .trim()
      .refine((v) => DATE_LIKE.test(v) && !Number.isNaN(Date.parse(v)), {
        message: `The ${field} is not a valid date.`,
        abort: true,
      }),
  );
const isValidDate = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

export const courseSlugRequest = z.object({ slug: slugField() });

export const createCourseRequest = z.object({
  name: requiredText(255),
  /** rupees, up to two decimals */
  amount: z.preprocess(
    (v) => {
      const b = blank(v);
      return typeof b === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(b) ? Number(b) : b;
    },
    z
      .number({
        error: (i) => (i.input === undefined ? 'The amount field is required.' : 'The amount must be a number.'),
      })
      .min(0)
      .max(10_000_000)
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, {
        message: 'The amount may have at most two decimals.',
      }),
  ),
  is_paid: z.preprocess(blank, flag().optional().default(false)),
  is_public: z.preprocess(blank, flag().optional().default(false)),
  description: optionalText(5000),
});
export const createCourseResponse = z.object({ message: z.string(), id: z.number(), slug: z.string() });

export const createModuleRequest = z.object({
  course_id: z.preprocess(blank, idField()),
  name: requiredText(255),
});
export const createModuleResponse = z.object({ message: z.string(), id: z.number(), name: z.string() });

export const courseItem = z.object({
  id: z.number(),
  /** the same id, as the old clients read it */
  course_id: z.number(),
  slug: z.string(),
  name: z.string(),
  /** rupees */
  amount: z.number(),
  is_paid: z.number(),
  is_public: z.number(),
  description: z.string().nullable(),
  topics: z.number(),
  learners: z.number(),
});
export const COURSE_SORT_KEYS = ['name', 'amount', 'created_at'] as const;
export const courseListRequest = listRequest(COURSE_SORT_KEYS);
export const authoredCoursePage = pagedList(courseItem);
export const courseDetails = z.object({ success: courseItem });

export const getModulesRequest = z.object({ course_id: z.preprocess(blank, idField()) });
export const moduleItem = z.object({ id: z.number(), name: z.string(), course_id: z.number() });
export const moduleList = z.object({ list: z.array(moduleItem) });

/**
 * Multipart body of /create-all-course and /update-all-course; the parts are read (and the video
 * checked by content) by the use case, so the schema only documents them.
 */
export const topicUploadRequest = z.object({
  course_url: z.unknown().optional().describe('The video file (required on create; empty keeps the current one).'),
  module_id: z.unknown().optional().describe('The module the topic belongs to.'),
  name: z.unknown().optional().describe('Topic name.'),
  description: z.unknown().optional().describe('Topic description.'),
  topic_id: z.unknown().optional().describe('Update only: the topic id.'),
  tus_upload_id: z
    .unknown()
    .optional()
    .describe(
      'Instead of course_url: the id of a finished resumable upload of the caller (tus, /api/course-uploads); the topic takes its video over.',
    ),
});
/** The text fields of the topic upload, once read from the form. */
export const topicFields = z.object({
  module_id: z.preprocess(blank, idField()),
  name: requiredText(255),
  description: optionalText(5000),
});
export const topicUploadResponse = z.object({
  message: z.string(),
  id: z.number(),
  slug: z.string(),
  video_status: z.enum(VIDEO_STATUS),
});

export const topicRow = z.object({
  /** course name */
  course: z.string(),
  course_slug: z.string(),
  /** module name */
  module: z.string(),
  module_id: z.number(),
  /** topic name */
  topic: z.string(),
  topic_id: z.number(),
  tslug: z.string(),
  description: z.string().nullable(),
  video_status: z.enum(VIDEO_STATUS),
  video_error: z.string().nullable(),
  duration: z.number().nullable(),
});
export const TOPIC_SORT_KEYS = ['module', 'topic'] as const;
export const topicListRequest = z.object({ slug: slugField(), ...listFields(TOPIC_SORT_KEYS) });
export const topicPage = pagedList(topicRow);
export const topicSlugRequest = z.object({ slug: slugField() });
export const courseMessageResponse = z.object({ message: z.string() });
/** One caption track of a topic's video (issue 21): one per language. */
export const captionTrack = z.object({
  /** BCP 47 language tag, e.g. 'en', 'hi', 'pt-BR' */
  language: z.string(),
  /** what the player's captions menu shows, e.g. 'English' */
  label: z.string(),
  bytes: z.number(),
  created_at: z.string(),
});
export const topicDetails = z.object({
  success: topicRow.extend({
    caption_tracks: z.array(captionTrack),
    /** the transcript shown under the player, when given */
    transcript: z.string().nullable(),
  }),
});

export const playTopic = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** a short-lived signed URL of the HLS master playlist; null until the video is ready */
  url: z.string().nullable(),
  poster: z.string().nullable(),
  /** the WebVTT caption tracks (signed URLs), when the provider uploaded them (issue 21) */
  captions: z.array(z.object({ language: z.string(), label: z.string(), url: z.string() })),
  /** the transcript, when the provider gave one */
  transcript: z.string().nullable(),
  video_status: z.enum(VIDEO_STATUS),
  video_error: z.string().nullable(),
  duration: z.number().nullable(),
  seconds_watched: z.number(),
  last_position: z.number(),
  is_complete: z.number(),
});
export const playModule = z.object({ id: z.number(), name: z.string(), topics: z.array(playTopic) });
export const playCourseResponse = z.object({
  course: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  data: z.array(playModule),
  /** whole-course progress, 0..100 */
  percentage: z.number(),
});

export const courseProgressRequest = z.object({
  /** topic slug */
  slug: slugField(),
  /** where the player is now, seconds */
  position: z.preprocess(blank, z.coerce.number().min(0).max(1_000_000)),
  /** seconds played since the previous report */
  watched: z.preprocess(blank, z.coerce.number().min(0).max(3600)),
});
export const courseProgressResponse = z.object({
  seconds_watched: z.number(),
  last_position: z.number(),
  is_complete: z.number(),
  course_complete: z.number(),
  percentage: z.number(),
});

export const userCourse = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  is_complete: z.number(),
  /** 0..100, from seconds watched */
  percentage: z.number(),
  /** inside the assignment window (purchases: always) */
  available: z.boolean(),
});
export const userCoursesResponse = z.object({
  assigned: z.array(userCourse),
  completed: z.array(userCourse),
  enrolled: z.array(userCourse),
});

export const lpUser = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});
export const lpUserList = z.object({ list: z.array(lpUser) });

export const assignCourseRequest = z
  .object({
    slug: slugField(),
    start_date: dateField('start date'),
    end_date: dateField('end date'),
    userIds: z.preprocess(
      (v) => (v === undefined || v === null ? undefined : v),
      z
        .array(idField(), { error: (i) => (i.input === undefined ? 'The user ids field is required.' : undefined) })
        .min(1)
        .max(1000),
    ),
  })
  .refine((b) => !isValidDate(b.start_date) || startsNotBeforeNow(b.start_date), {
    message: 'The start date must be a date after or equal to now.',
    path: ['start_date'],
    ...ALWAYS,
  })
  .refine(
    (b) => !isValidDate(b.start_date) || !isValidDate(b.end_date) || Date.parse(b.end_date) >= Date.parse(b.start_date),
    { message: 'The end date must be a date after or equal to start date.', path: ['end_date'], ...ALWAYS },
  );
export const assignCourseResponse = z.object({ message: z.string(), assigned: z.number(), updated: z.number() });

export const courseUser = z.object({
  id: z.number(),
  user_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  source: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  is_complete: z.number(),
  percentage: z.number(),
});
export const COURSE_USER_SORT_KEYS = ['first_name', 'email', 'start_date'] as const;
export const courseUsersRequest = z.object({ slug: slugField(), ...listFields(COURSE_USER_SORT_KEYS) });
export const courseUserPage = pagedList(courseUser);

export const courseListRow = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  amount: z.number(),
  is_paid: z.number(),
  description: z.string().nullable(),
});
export const CATALOGUE_SORT_KEYS = ['name', 'amount'] as const;
export const catalogueRequest = listRequest(CATALOGUE_SORT_KEYS);
export const cataloguePage = pagedList(courseListRow);

/** A topic's captions: one WebVTT file per language (issue 21); a new one of a language replaces it. */
export const CAPTIONS_MAX_BYTES = 512 * 1024;
/** How many caption tracks one video may have. */
export const CAPTIONS_MAX_TRACKS = 20;
/** A BCP 47 language tag as the <track srclang> takes it: 'en', 'hi', 'pt-BR', 'zh-Hant'. */
export const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,2}$/;
export const topicCaptionsRequest = z.object({
  // multipart parts are read by the call itself (the body is not parsed before it)
  slug: z.unknown().optional().describe('The topic’s slug (a text part).'),
  language: z.unknown().optional().describe('The language tag of the captions, e.g. en, hi, pt-BR (a text part).'),
  label: z.unknown().optional().describe('The name the player shows for the track, e.g. English (a text part).'),
  file: z.unknown().optional().describe('The .vtt file (multipart/form-data part named "file").'),
});

export const deleteCaptionsRequest = z.object({
  slug: slugField(),
  language: requiredText(20).regex(LANGUAGE_TAG, {
    message: 'The language must be a language tag such as en or pt-BR.',
  }),
});

/**
 * /save-topic-transcript: the transcript as text, or taken from one of the topic's caption tracks
 * (`from_language`: the cues' text without timings); an empty transcript removes it.
 */
export const TRANSCRIPT_MAX_LENGTH = 200_000;
export const saveTranscriptRequest = z.object({
  slug: slugField(),
  transcript: z.string().max(TRANSCRIPT_MAX_LENGTH).nullish(),
  from_language: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(LANGUAGE_TAG, { message: 'The from language must be a language tag such as en or pt-BR.' })
      .optional(),
  ),
});
export const saveTranscriptResponse = z.object({ message: z.string(), transcript: z.string().nullable() });
