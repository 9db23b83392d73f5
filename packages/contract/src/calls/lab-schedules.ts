import type { ApiCall } from '../api-base.js';
import { call } from '../api-base.js';
import type { Role } from '../roles.js';
import * as s from '../schemas/lab-schedules.js';

const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
/** The training's moderators: its tenant's managers and its assigned trainers. Never learners. */
const MODERATORS: readonly Role[] = [...MANAGERS, 'trainer'];

/** Labs on a training's schedule and the instructor's over-the-shoulder view (decision 0026). */
export const LAB_SCHEDULE_CALLS = {
  trainingLabSchedules: call(
    'training-lab-schedules',
    MANAGERS,
    'The labs tied to a training of the tenant {slug}: lead and grace minutes, the next start and stop, the last thing the schedule did.',
    s.labSchedulesRequest,
    s.labSchedulesResponse,
  ),
  tieLabToTraining: call(
    'tie-lab-to-training',
    MANAGERS,
    'Tie a lab {slug, vm_name?, lead_minutes?, grace_minutes?} to a training’s schedule: started lead minutes before each session topic and stopped grace minutes after it ends. Without vm_name: the labs assigned to the training’s learners.',
    s.tieLabRequest,
    s.labScheduleMessage,
  ),
  untieLabFromTraining: call(
    'untie-lab-from-training',
    MANAGERS,
    'Untie {id}: the schedule makes no more starts or stops for it.',
    s.untieLabRequest,
    s.labScheduleMessage,
  ),
  updateLabScheduleLead: call(
    'update-lab-schedule-lead',
    MANAGERS,
    'The tenant’s default lead time {lead_minutes} for ties that do not set their own.',
    s.labScheduleLeadRequest,
    s.labScheduleMessage,
  ),
  trainingLabViews: call(
    'training-lab-views',
    MODERATORS,
    'The labs of a training’s enrolled learners {slug} with a view-only desktop address each: the training’s managers and assigned trainers only.',
    s.labSchedulesRequest,
    s.labViewsResponse,
  ),
} satisfies Record<string, ApiCall>;
