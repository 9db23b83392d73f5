import { z } from 'zod';
import { ALWAYS, emailField, flag, idField, mobileField, requiredText } from '../validation.js';
import { learnerVm } from './labs.js';
import { listFields, listRequest, pagedList } from './paging.js';

/**
 * Live trainings (spec 01 §3 Training / Training user, spec 02 §3 syllabus topic / attendance).
 * Dates travel as ISO 8601 strings.
 */

/** 0 not started, 1 started (a topic started), 2 completed (reserved: set by the conference issue when a training is ended). */
export const TRAINING_STATUS = { notStarted: 0, started: 1, completed: 2 } as const;
/** Syllabus topic status: 0 Schedule, 1 Starting, 2 Completed. */
export const TOPIC_STATUS = { schedule: 0, starting: 1, completed: 2 } as const;
export const TOPIC_STATUS_LABELS = ['Schedule', 'Starting', 'Completed'] as const;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A required date or date-time ('2026-11-21', '2026-11-21T09:30', '2026-11-21T09:30:00.000Z'). */
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
const optionalDateTime = (field: string) =>
  z
    .preprocess(
      blank,
      z
        .string()
        .trim()
        .refine((v) => DATE_LIKE.test(v) && !Number.isNaN(Date.parse(v)), {
          message: `The ${field} is not a valid date.`,
        })
        .optional(),
    )
    .transform((v) => v ?? null);

/** A whole number from a number or numeric text, within bounds. */
const count = (min: number, max: number) => z.preprocess(blank, z.coerce.number().int().min(min).max(max));
const slugField = () => requiredText(200);

const isValidDate = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
/** A date-only value names a whole day: it is "not before now" when the day is today or later. */
export function startsNotBeforeNow(start: string, now = new Date()): boolean {
  if (DATE_ONLY.test(start)) return start >= now.toISOString().slice(0, 10);
  // one minute of grace for the time the form took to travel
  return Date.parse(start) >= now.getTime() - 60_000;
}

export const createTrainingRequest = z
  .object({
    name: requiredText(255),
    start_date: dateField('start date'),
    end_date: dateField('end date'),
    total_training_day: count(1, 3650),
    number_of_participants: count(1, 100_000),
    description: requiredText(10_000),
    /** blank entries are dropped */
    requirements: z
      .preprocess((v) => (v === undefined || v === null ? [] : v), z.array(z.string().max(500)).max(100))
      .transform((list) => list.map((r) => r.trim()).filter((r) => r.length > 0)),
    pre_assessment: flag().optional().default(false),
    post_assessment: flag().optional().default(false),
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

/**
 * /update-training (not in the spec; issue 32): change a training after it was created. Every field
 * but slug is optional and only the fields sent change. The details (name, dates, days, participants,
 * description, requirements) change only while the training has not started; the pre/post
 * assessment switches at any time.
 */
/** The details of a training: changed only before it starts. */
export const TRAINING_DETAIL_FIELDS = [
  'name',
  'start_date',
  'end_date',
  'total_training_day',
  'number_of_participants',
  'description',
  'requirements',
] as const;
export const updateTrainingRequest = z
  .object({
    slug: slugField(),
    name: requiredText(255).optional(),
    start_date: dateField('start date').optional(),
    end_date: dateField('end date').optional(),
    total_training_day: count(1, 3650).optional(),
    number_of_participants: count(1, 100_000).optional(),
    description: requiredText(10_000).optional(),
    requirements: z
      .array(z.string().max(500))
      .max(100)
      .transform((list) => list.map((r) => r.trim()).filter((r) => r.length > 0))
      .optional(),
    pre_assessment: flag().optional(),
    post_assessment: flag().optional(),
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
export const updateTrainingResponse = z.object({
  message: z.string(),
  id: z.number(),
  slug: z.string(),
  cost: z.number(),
  pre_assessment: z.number(),
  post_assessment: z.number(),
});

export const trainingRow = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  /** meeting id */
  link: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  total_training_day: z.number(),
  number_of_participants: z.number(),
  /** enrolled learners */
  total_participants: z.number(),
  is_public: z.number(),
  status: z.number(),
  totalTopics: z.number(),
  is_download_certificate: z.number(),
  description: z.string().nullable(),
  requirements: z.array(z.string()),
  cost: z.number(),
  pre_assessment: z.number(),
  post_assessment: z.number(),
});
export const trainingList = z.object({ list: z.array(trainingRow) });
/** Sort keys of the paged training lists (/all-trainings, /completed-trainings). */
export const TRAINING_SORT_KEYS = ['name', 'start_date', 'end_date', 'total_participants'] as const;
export const trainingListRequest = listRequest(TRAINING_SORT_KEYS);
export const trainingPage = pagedList(trainingRow);
export const trainingDetails = z.object({ success: trainingRow });

export const createTrainingResponse = z.object({
  message: z.string(),
  id: z.number(),
  slug: z.string(),
  link: z.string(),
  cost: z.number(),
});

export const trainingSlugRequest = z.object({ slug: slugField() });
export const trainingIdRequest = z.object({ id: z.preprocess(blank, idField()) });
/**
 * Multipart body of the training imports: the file part plus the text field `slug`. The parts are
 * read by the import itself (a missing slug answers 422 {slug}), so the schema only documents them.
 */
export const trainingUploadRequest = z.object({
  file: z.unknown().optional().describe('The .xls or .xlsx file (multipart/form-data part named "file").'),
  slug: z.unknown().optional().describe('The training slug (multipart text field).'),
});
export const trainingMessageResponse = z.object({ message: z.string() });
export const publicToggleResponse = z.object({ message: z.string(), is_public: z.number() });

export const dashboardItem = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  start_date: z.string(),
  end_date: z.string(),
});
export const managerDashboardResponse = z.object({
  list: z.array(dashboardItem),
  total_trainings: z.number(),
  upcoming_trainings: z.number(),
  completed_trainings: z.number(),
  total_participants: z.number(),
});

// ---- training users --------------------------------------------------------------------------

export const addTrainingUserRequest = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  mobile_no: mobileField(),
  email: emailField(),
  slug: slugField(),
});
export const addTrainingUserResponse = z.object({ message: z.string(), id: z.number(), user_id: z.number() });

/** Columns of the training-user Excel import (template type 'training-user'). */
export const TRAINING_USER_IMPORT_COLUMNS = ['firstname', 'lastname', 'email', 'mobileno'] as const;
export const trainingUserImportRow = z.object({
  firstname: requiredText(100),
  lastname: requiredText(100),
  email: emailField(),
  mobileno: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), mobileField()),
});

export const trainingUserRow = z.object({
  id: z.number(),
  training_id: z.number(),
  user_id: z.number(),
  /** the learner's e-mail (the account name) */
  user_name: z.string(),
  /** first and last name */
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  start_date: z.string(),
  end_date: z.string(),
  /** 1 when the learner joined at least once */
  join: z.number(),
  /** total attended minutes */
  min: z.number(),
  send_email_certificate: z.number(),
  is_download_certificate: z.number(),
});
export const trainingUserList = z.object({ list: z.array(trainingUserRow) });
export const TRAINING_USER_SORT_KEYS = ['first_name', 'last_name', 'email', 'min'] as const;
/** /lp/get-training-users: one training's learners, paged (the list convention). */
export const trainingUsersRequest = z.object({ slug: slugField(), ...listFields(TRAINING_USER_SORT_KEYS) });
export const trainingUserPage = pagedList(trainingUserRow);
/**
 * /get-tenant-learners (not in the spec; issue 32): the caller's own tenant's learner accounts (a
 * provider's provider_user accounts, an organization's organization_user accounts), to pick an
 * existing person on the add-training-user and assign-VM forms instead of retyping them.
 */
export const TENANT_LEARNER_SORT_KEYS = ['first_name', 'last_name', 'email'] as const;
export const tenantLearnersRequest = listRequest(TENANT_LEARNER_SORT_KEYS);
export const tenantLearnerRow = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string(),
});
export const tenantLearnerPage = pagedList(tenantLearnerRow);
export const certificateAccessResponse = z.object({ message: z.string(), is_download_certificate: z.number() });

// ---- trainers ----------------------------------------------------------------------------------

export const assignTrainersRequest = z.object({
  slug: slugField(),
  trainer_ids: z.preprocess(
    (v) => (v === undefined || v === null ? undefined : Array.isArray(v) ? v : [v]),
    z.array(idField()).min(1).max(50),
  ),
});
export const trainerItem = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});
export const trainerItemList = z.object({ list: z.array(trainerItem) });

// ---- syllabus and attendance ------------------------------------------------------------------

export const syllabusTopic = z.object({
  id: z.number(),
  session_topic: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  no_of_min: z.number(),
  /** average rating, one decimal; null when nobody rated */
  rating: z.number().nullable(),
  status: z.number(),
  recording_url: z.string().nullable(),
});
export const syllabusList = z.object({ list: z.array(syllabusTopic) });

export const addSyllabusRequest = z
  .object({
    topic_name: requiredText(255),
    slug: slugField(),
    start_time: optionalDateTime('start time'),
    end_time: optionalDateTime('end time'),
  })
  .refine(
    (b) => !isValidDate(b.start_time) || !isValidDate(b.end_time) || Date.parse(b.end_time) >= Date.parse(b.start_time),
    { message: 'The end time must be a date after or equal to start time.', path: ['end_time'], ...ALWAYS },
  );
export const trainingAddedResponse = z.object({ message: z.string(), id: z.number() });

/** Columns of the syllabus Excel import (template type 'training-syllabus'); the time cells may be blank. */
export const SYLLABUS_IMPORT_COLUMNS = ['topic_name', 'start_time', 'end_time'] as const;
export const syllabusImportRow = z.object({
  topic_name: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), requiredText(255)),
  start_time: optionalDateTime('start time'),
  end_time: optionalDateTime('end time'),
});

export const topicStatusResponse = z.object({ message: z.string(), status: z.number() });

export const attendanceRow = z.object({
  user_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  session_topic: z.string(),
  /** join */
  start_time: z.string(),
  /** leave (null while still in the session) */
  end_time: z.string().nullable(),
  minutes: z.number(),
  rating: z.number().nullable(),
});
export const attendanceList = z.object({ list: z.array(attendanceRow) });

// ---- learners ----------------------------------------------------------------------------------

export const learnerTraining = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  link: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  totalTopics: z.number(),
  status: z.number(),
  /** of the enrolment */
  is_download_certificate: z.number(),
});
export const learnerTrainingList = z.object({ list: z.array(learnerTraining) });
export const myTrainingsRequest = listRequest(['name', 'start_date', 'end_date']);
export const learnerTrainingPage = pagedList(learnerTraining);
export const startStatusResponse = z.object({ status: z.number() });
export const checkTrainingStatusResponse = z.object({
  /** training status 0/1/2 */
  status: z.number(),
  /** 1 when the training has started (status 1 or a topic is Starting) */
  start_status: z.number(),
  totalTopics: z.number(),
});
export const learnerTopic = syllabusTopic.extend({
  ustart_time: z.string().nullable(),
  uend_time: z.string().nullable(),
  urating: z.number().nullable(),
});
export const learnerTopicList = z.object({
  list: z.array(learnerTopic),
  /** the training's name, for the page's heading (a field beside the list the old clients ignore) */
  name: z.string(),
});
export const ratingRequest = z.object({
  rating: z.preprocess(blank, z.coerce.number().int().min(1).max(5)),
  id: z.preprocess(blank, idField()),
});
export const learnerDashboardResponse = z.object({
  list: z.array(dashboardItem),
  /** the learner's lab (most recently assigned, not deleted), or null */
  d_vm_data: learnerVm.nullable(),
  /** every lab assigned to the learner (not deleted), most recently assigned first */
  vms: z.array(learnerVm),
});

// ---- conference join status (basic form) ----------------------------------------------------------

export const joinStatusRequest = z.object({
  slug: slugField(),
  is_start: flag().optional().default(false),
  is_end: flag().optional().default(false),
  /** elapsed seconds, sent with is_end */
  min: z.preprocess(
    blank,
    z.coerce
      .number()
      .min(0)
      .max(7 * 24 * 3600)
      .optional(),
  ),
  is_open: flag().optional().default(false),
});
export const joinStatusResponse = z.object({ message: z.string(), minutes: z.number().optional() });
export const joinCountResponse = z.object({ count: z.number(), isModerator: z.number(), isAssing: z.number() });
