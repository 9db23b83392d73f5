import { z } from 'zod';
import { requiredText } from '../validation.js';

/**
 * Labs tied to a live training's schedule, and the instructor's over-the-shoulder view of the
 * enrolled learners' lab desktops (decision 0026). Times as ISO 8601 strings.
 */

export const LAB_SCHEDULE_LIMITS = { maxLead: 240, maxGrace: 240, defaultLead: 15, defaultGrace: 15 } as const;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const minutes = (max: number) => z.coerce.number().int().min(0).max(max);

export const labSchedulesRequest = z.object({ slug: requiredText(200) });

export const tieLabRequest = z.object({
  slug: requiredText(200),
  /** one lab of the tenant by vm_name; empty: the labs assigned to the training's learners */
  vm_name: z.preprocess(blank, z.string().trim().max(64).optional()).transform((v) => v ?? null),
  /** empty: the tenant's default lead time */
  lead_minutes: z.preprocess(blank, minutes(LAB_SCHEDULE_LIMITS.maxLead).optional()).transform((v) => v ?? null),
  grace_minutes: z
    .preprocess(blank, minutes(LAB_SCHEDULE_LIMITS.maxGrace).optional())
    .transform((v) => v ?? LAB_SCHEDULE_LIMITS.defaultGrace),
});

export const untieLabRequest = z.object({ id: z.coerce.number().int().min(1) });

export const labScheduleLeadRequest = z.object({
  lead_minutes: z.preprocess(blank, minutes(LAB_SCHEDULE_LIMITS.maxLead)),
});

export const labScheduleEvent = z.object({
  action: z.enum(['start', 'stop']),
  at: z.string(),
  vm_name: z.string(),
  topic: z.string(),
  /** null: done; else why it was refused */
  outcome: z.string().nullable(),
});

export const labScheduleRow = z.object({
  id: z.number(),
  /** null: the labs assigned to the training's learners */
  vm_name: z.string().nullable(),
  name: z.string().nullable(),
  lead_minutes: z.number().nullable(),
  /** the lead in force: the tie's, else the tenant's */
  lead_in_force: z.number(),
  grace_minutes: z.number(),
  /** how many labs it covers right now */
  labs: z.number(),
  /** the next start and stop it will make, when a topic is ahead */
  next_start: z.string().nullable(),
  next_stop: z.string().nullable(),
  last_event: labScheduleEvent.nullable(),
});

export const labSchedulesResponse = z.object({
  slug: z.string(),
  lead_minutes_default: z.number(),
  list: z.array(labScheduleRow),
});

export const labScheduleMessage = z.object({ message: z.string() });

/** The over-the-shoulder view: each enrolled learner's lab with its view-only desktop address. */
export const labViewRow = z.object({
  user_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  vm_name: z.string(),
  name: z.string(),
  status: z.number(),
  /** the lab has a desktop to watch (running, with VNC) */
  desktop: z.boolean(),
  /** WebSocket path of the view-only desktop (the session token goes as a subprotocol) */
  view_path: z.string().nullable(),
});
export const labViewsResponse = z.object({ slug: z.string(), list: z.array(labViewRow) });

export const LAB_SCHEDULE_MSG = {
  tied: 'The lab is tied to the training’s schedule.',
  untied: 'The lab is no longer tied to the training’s schedule.',
  leadSaved: 'The default lead time is saved.',
  alreadyTied: 'This lab is already tied to the training.',
  vmInvalid: 'The selected vm name is invalid.',
} as const;
