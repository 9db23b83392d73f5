import { z } from 'zod';
import { call } from '../api-base.js';
import type { Role } from '../roles.js';
import * as tc from '../schemas/take-calls.js';

const TRAINER: readonly Role[] = ['trainer'];
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
const message = z.object({ message: z.string() });

/** Take calls (spec 02 §9): a manager's call for trainers of a training, and each trainer's answer. */
export const TAKE_CALL_CALLS = {
  // take calls, manager side
  getTrainerList: call(
    'get-trainer-list',
    MANAGERS,
    'Search active trainers by their skills: search (name or skill), category, skill, highest rate, least experience.',
    tc.trainerSearchRequest,
    tc.trainerSearchPage,
  ),
  createTakeCall: call(
    'create-take-call',
    MANAGERS,
    'Create a take call for a training of the caller’s tenant and e-mail each trainer an invitation.',
    tc.createTakeCallRequest,
    tc.takeCallCreated,
  ),
  showTakeCall: call(
    'show-take-call',
    MANAGERS,
    'Take calls of the caller’s tenant.',
    tc.takeCallListRequest,
    tc.takeCallPage,
  ),
  rescheduleTakeCall: call(
    'reschedule-take-call',
    MANAGERS,
    'Move a take call and tell its trainers.',
    tc.rescheduleTakeCallRequest,
    message,
  ),
  showTakeCallDetails: call(
    'show-take-call-details',
    MANAGERS,
    'The trainers of a take call with their answers.',
    tc.takeCallDetailsRequest,
    tc.takeCallDetailsPage,
  ),
  assignTrainerToTraining: call(
    'assign-trainer-to-training',
    MANAGERS,
    'Assign trainers of a take call to its training (added to the training’s trainers).',
    tc.assignFromTakeCallRequest,
    message,
  ),
  getTrainingTrainersRequirementStatus: call(
    'get-training-trainers-requirement-status',
    MANAGERS,
    'The requirements a trainer of the take call confirmed.',
    tc.requirementStatusRequest,
    tc.requirementStatusResponse,
  ),

  // take calls, trainer side
  trainerTakeCalls: call(
    'trainer-take-calls',
    TRAINER,
    'Take calls sent to the calling trainer.',
    tc.trainerTakeCallListRequest,
    tc.trainerTakeCallPage,
  ),
  rescheduleTrainerTakeCall: call(
    'reschedule-trainer-take-call',
    TRAINER,
    'Answer a take call: status, three proposed dates, remark.',
    tc.answerTakeCallRequest,
    message,
  ),
  getTrainingRequirements: call(
    'get-training-requirements',
    TRAINER,
    'The training’s requirements for the caller to confirm.',
    tc.requirementsRequest,
    tc.requirementList,
  ),
  updateTrainingRequirement: call(
    'update-training-requirement',
    TRAINER,
    'Confirm the selected requirements (the others are unselected).',
    tc.confirmRequirementsRequest,
    message,
  ),
};
