import { z } from 'zod';
import { ALWAYS, idField, requiredText } from '../validation.js';
import { listFields, pagedList } from './paging.js';
import { EXPERIENCE_TYPES } from './trainers.js';

/**
 * Take calls (spec 02 §2 'Take calls', §3 Take call, Requirement, §4 take-call states): a manager
 * sounds out trainers for one of their trainings; each trainer answers with a status, three
 * proposed dates and a remark, confirms the training's requirements, and may be assigned.
 */

/** Per trainer: 0 Schedule (not answered), 1 Available, 2 Reschedule, 3 Not Interested. */
export const TAKE_CALL_STATUS = { schedule: 0, available: 1, reschedule: 2, notInterested: 3 } as const;
/** Manager's take-call-trainers labels (spec spelling). */
export const TAKE_CALL_TRAINER_STATUS_LABELS: Record<number, string> = { 1: 'Availble', 2: 'Reschedule' };
/** Trainer's list labels (spec spelling). */
export const TRAINER_TAKE_CALL_STATUS_LABELS: Record<number, string> = {
  0: 'Schedule',
  1: 'Available',
  2: 'Reschedule',
  3: 'Not Intrested',
};
/** The Select Status options of the Confirm Take Call modal. */
export const TAKE_CALL_ANSWER_OPTIONS = [
  { value: 1, label: 'Available' },
  { value: 2, label: 'Reschedule' },
  { value: 3, label: 'Not Interested' },
] as const;

export const TAKE_CALL_MSG = {
  created: 'Take call created successfully!',
  rescheduled: 'Take call rescheduled successfully!',
  answered: 'Take call updated successfully!',
  assigned: 'Trainers assigned successfully!',
  requirementsConfirmed: 'Requirement confirmed successfully!',
  notInTakeCall: 'The selected trainer is not in this take call.',
  requirementInvalid: 'The selected ids are invalid.',
} as const;

export const TAKE_CALL_MAX_TRAINERS = 50;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const label = (f: string) => f.replace(/_/g, ' ');
const isDateTime = (v: unknown): v is string =>
  typeof v === 'string' && DATE_LIKE.test(v) && !Number.isNaN(Date.parse(v));
/** One minute of grace for the time the form took to travel. */
export const notBeforeNow = (v: string, now = Date.now()) => Date.parse(v) >= now - 60_000;

/** A date with time; "not before now" is checked by the object so every error shows at once. */
const dateTimeBase = (field: string) =>
  z
    .string()
    .trim()
    .refine(isDateTime, { message: `The ${label(field)} is not a valid date.` });
const requiredDateTime = (field: string) =>
  z.preprocess(blank, z.string({ error: () => `The ${label(field)} field is required.` }).pipe(dateTimeBase(field)));
const optionalDateTime = (field: string) =>
  z.preprocess(blank, dateTimeBase(field).optional()).transform((v) => v ?? null);
const id = () => z.preprocess(blank, idField());
const ids = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? [] : v),
    z.array(z.coerce.number().int().positive()).min(1).max(max),
  );

/** Start not before now, end after start. */
function windowRules<T extends z.ZodObject>(schema: T) {
  return schema
    .refine((b) => !isDateTime(b.start) || notBeforeNow(b.start as string), {
      message: 'The start must be a date after or equal to now.',
      path: ['start'],
      ...ALWAYS,
    })
    .refine(
      (b) => !isDateTime(b.start) || !isDateTime(b.end) || Date.parse(b.end as string) > Date.parse(b.start as string),
      { message: 'The end must be a date after start.', path: ['end'], ...ALWAYS },
    );
}

// ---------------------------------------------------------------- manager side

export const TRAINER_SEARCH_SORT_KEYS = ['first_name', 'rate_per_hours', 'experience'] as const;
/** /get-trainer-list: trainers whose skills match every given filter. */
export const trainerSearchRequest = z.object({
  category_id: z.preprocess(blank, idField().optional()),
  skill_id: z.preprocess(blank, idField().optional()),
  /** at most this rate per hour */
  max_rate: z.preprocess(blank, z.coerce.number().int().min(1).optional()),
  /** at least this many months of experience in the skill */
  min_experience_months: z.preprocess(blank, z.coerce.number().int().min(0).optional()),
  ...listFields(TRAINER_SEARCH_SORT_KEYS),
});
export const trainerSearchSkill = z.object({
  cname: z.string(),
  sname: z.string(),
  experience: z.number(),
  type: z.enum(EXPERIENCE_TYPES),
  rate_per_hours: z.number(),
});
export const trainerSearchRow = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  base_location: z.string().nullable(),
  experience_over_all: z.number().nullable(),
  /** the lowest rate among the matching skills */
  rate_per_hours: z.number(),
  /** the longest matching experience, in months */
  experience: z.number(),
  skills: z.array(trainerSearchSkill),
});
export const trainerSearchPage = pagedList(trainerSearchRow);

export const createTakeCallRequest = windowRules(
  z.object({
    title: requiredText(191),
    start: requiredDateTime('start'),
    end: requiredDateTime('end'),
    /** the training's slug */
    slug: requiredText(200),
    trainer_ids: ids(TAKE_CALL_MAX_TRAINERS),
  }),
);
export const rescheduleTakeCallRequest = windowRules(
  z.object({ title: requiredText(191), start: requiredDateTime('start'), end: requiredDateTime('end'), id: id() }),
);

export const takeCallRow = z.object({
  id: z.number(),
  slug: z.string(),
  /** the training's name and slug */
  name: z.string(),
  training_slug: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  /** 0 Scheduled (end still ahead), 1 Completed */
  status: z.number(),
  trainers: z.number(),
  answered: z.number(),
});
export const TAKE_CALL_SORT_KEYS = ['start', 'end', 'title', 'name'] as const;
export const takeCallListRequest = z.object({
  /** only the take calls of this training */
  slug: z.preprocess(blank, z.string().max(200).optional()),
  ...listFields(TAKE_CALL_SORT_KEYS),
});
export const takeCallPage = pagedList(takeCallRow);
export const takeCallCreated = z.object({ message: z.string(), id: z.number(), slug: z.string() });

export const takeCallTrainerRow = z.object({
  trainer_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  propose_date1: z.string().nullable(),
  propose_date2: z.string().nullable(),
  propose_date3: z.string().nullable(),
  status: z.number(),
  remark: z.string().nullable(),
  /** 1 when already assigned to the training (spec spelling) */
  is_assing: z.number(),
  /** requirements the trainer confirmed / the training's total */
  requirements_confirmed: z.number(),
  requirements_total: z.number(),
});
export const TAKE_CALL_TRAINER_SORT_KEYS = ['first_name', 'status'] as const;
export const takeCallDetailsRequest = z.object({ id: id(), ...listFields(TAKE_CALL_TRAINER_SORT_KEYS) });
export const takeCallDetailsPage = pagedList(takeCallTrainerRow).extend({
  take_call: takeCallRow,
});
export const assignFromTakeCallRequest = z.object({
  trainer_ids: ids(TAKE_CALL_MAX_TRAINERS),
  take_call_id: id(),
});

// ---------------------------------------------------------------- trainer side

export const trainerTakeCallRow = z.object({
  /** the manager who sent it */
  first_name: z.string(),
  last_name: z.string(),
  /** the learning provider or organization */
  learning_provider: z.string(),
  /** the training's name */
  name: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  status: z.number(),
  propose_date1: z.string().nullable(),
  propose_date2: z.string().nullable(),
  propose_date3: z.string().nullable(),
  remark: z.string().nullable(),
  is_assing: z.number(),
  take_call_id: z.number(),
  take_call_detail_id: z.number(),
});
export const TRAINER_TAKE_CALL_SORT_KEYS = ['start', 'title', 'name', 'status'] as const;
export const trainerTakeCallListRequest = z.object(listFields(TRAINER_TAKE_CALL_SORT_KEYS));
export const trainerTakeCallPage = pagedList(trainerTakeCallRow);

/**
 * Confirm Take Call (spec 02 §4: "up to three proposed dates"): every date given must be in the
 * future; Reschedule proposes at least one (propose_date1); Available and Not Interested need none
 * (issue 41: Available demanded three dates).
 */
export const answerTakeCallRequest = z
  .object({
    id: id(),
    status: z.preprocess(
      blank,
      z.coerce
        .number()
        .int()
        .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)])),
    ),
    /** read-only in the modal: sent back, ignored */
    title: z.unknown().optional(),
    remark: z.preprocess(blank, z.string().trim().max(1000).optional()).transform((v) => v ?? null),
    propose_date1: optionalDateTime('propose_date1'),
    propose_date2: optionalDateTime('propose_date2'),
    propose_date3: optionalDateTime('propose_date3'),
  })
  .superRefine((b, ctx) => {
    for (const f of ['propose_date1', 'propose_date2', 'propose_date3'] as const) {
      const v = b[f];
      const needed = b.status === 2 && f === 'propose_date1';
      if (needed && !v) ctx.addIssue({ code: 'custom', path: [f], message: `The ${label(f)} field is required.` });
      else if (v && !notBeforeNow(v)) {
        ctx.addIssue({ code: 'custom', path: [f], message: `The ${label(f)} must be a date after or equal to now.` });
      }
    }
  });

export const requirementRow = z.object({ trId: z.number(), requirement: z.string(), status: z.number() });
export const requirementList = z.object({ list: z.array(requirementRow), take_call: trainerTakeCallRow.nullable() });
export const requirementsRequest = z.object({ take_call_id: id() });
/**
 * The spec's `{ids[]}` (the selected ones; the others are unselected). `take_call_id` is an optional
 * addition so that the checklist can save each tick as it is made, including unticking the last
 * one: with it, `ids` may be empty and every id must belong to that take call's list.
 */
export const confirmRequirementsRequest = z
  .object({
    ids: z.preprocess(
      (v) => (v === undefined || v === null ? [] : v),
      z.array(z.coerce.number().int().positive()).max(100),
    ),
    take_call_id: z.preprocess(blank, idField().optional()),
  })
  .refine((b) => b.take_call_id !== undefined || !Array.isArray(b.ids) || b.ids.length > 0, {
    message: 'The ids field is required.',
    path: ['ids'],
    ...ALWAYS,
  });
export const requirementStatusRequest = z.object({ trainer_id: id(), take_call_id: id() });
export const requirementStatusResponse = z.object({
  list: z.array(requirementRow),
  trainer: z.object({ first_name: z.string(), last_name: z.string() }),
  title: z.string(),
});
