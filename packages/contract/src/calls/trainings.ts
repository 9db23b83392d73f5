import type { ApiCall } from '../api-base.js';
import { call, empty } from '../api-base.js';
import { LEARNER_ROLES, type Role } from '../roles.js';
import { importResponse } from '../schemas/imports.js';
import * as t from '../schemas/trainings.js';

/** Providers, organizations and org sub-admins manage the trainings of their own tenant. */
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
/** Managers, plus trainers for the trainings assigned to them. */
const STAFF: readonly Role[] = [...MANAGERS, 'trainer'];
/** Enrolled learners. */
const LEARNERS: readonly Role[] = LEARNER_ROLES;
const TRAINER: readonly Role[] = ['trainer'];
/** Every role but admin: spec 01 §2 gives them all /my-trainings. */
const NON_ADMIN: readonly Role[] = [
  'user',
  'provider',
  'provider_user',
  'organization',
  'organization_user',
  'org_subadmin',
  'trainer',
];
/** Everyone who may be in a training's conference: learners, managers, trainers. */
const PARTICIPANTS: readonly Role[] = [...LEARNERS, ...STAFF];

/** Live trainings: create, list, enrol, trainers, syllabus, attendance, learner views (spec 01 §7, spec 02 §7). */
export const TRAINING_CALLS = {
  createTraining: call(
    'create-training',
    MANAGERS,
    'Create a training of the caller’s tenant; the cost is computed from the service prices (training per day × days + (pre + post assessment per test) × participants).',
    t.createTrainingRequest,
    t.createTrainingResponse,
  ),
  updateTraining: call(
    'update-training',
    MANAGERS,
    'Change a training of the caller’s tenant (not in the spec; issue 32): only the fields sent change. Name, dates, days, participants, description and requirements only while it has not started (status 0; 422 otherwise); the pre/post assessment may be switched on at any time, and off while no test of that type is built. The cost is computed again.',
    t.updateTrainingRequest,
    t.updateTrainingResponse,
  ),
  allTrainings: call(
    'all-trainings',
    MANAGERS,
    'Upcoming trainings of the caller’s tenant: status 0 or 1 and end date not passed; paged, searchable by name or meeting id.',
    t.trainingListRequest,
    t.trainingPage,
  ),
  completedTrainings: call(
    'completed-trainings',
    MANAGERS,
    'Completed trainings of the caller’s tenant: status 2 or end date passed; paged, searchable by name or meeting id.',
    t.trainingListRequest,
    t.trainingPage,
  ),
  getTrainingDetails: call(
    'get-training-details',
    STAFF,
    'One training of the caller’s tenant (or assigned to the calling trainer).',
    t.trainingSlugRequest,
    t.trainingDetails,
  ),
  lpPublicTraining: call(
    'lp-public-training',
    MANAGERS,
    'Toggle is_public 0 ↔ 1 of a training by id.',
    t.trainingIdRequest,
    t.publicToggleResponse,
  ),
  deleteTrainings: call(
    'delete-trainings',
    MANAGERS,
    'Delete a training that has not started (status 0); 422 otherwise.',
    t.trainingSlugRequest,
    t.trainingMessageResponse,
  ),
  getDashboardData: call(
    'get-dashboard-data',
    MANAGERS,
    'Provider/organization dashboard: upcoming trainings and counts.',
    empty,
    t.managerDashboardResponse,
  ),

  lpAddTrainingUser: call(
    'lp/add-training-user',
    MANAGERS,
    'Enrol one learner; a new e-mail gets an account and a set-password link, an existing learner an enrolment mail.',
    t.addTrainingUserRequest,
    t.addTrainingUserResponse,
  ),
  lpImportTrainingUser: call(
    'lp/import-training-user',
    MANAGERS,
    'Enrol learners from an .xls/.xlsx file (columns firstname, lastname, email, mobileno; /download-template {type: training-user}) plus the field slug; all rows or none.',
    t.trainingUploadRequest,
    importResponse,
    { multipart: true },
  ),
  getTenantLearners: call(
    'get-tenant-learners',
    MANAGERS,
    'Learner accounts of the caller’s own tenant (a provider’s provider users, an organization’s organization users), to pick one on a form; paged, searchable by name, e-mail or mobile.',
    t.tenantLearnersRequest,
    t.tenantLearnerPage,
  ),
  lpGetTrainingUsers: call(
    'lp/get-training-users',
    MANAGERS,
    'Learners enrolled in a training, with join status, attended minutes and certificate flags; paged, searchable by name or e-mail.',
    t.trainingUsersRequest,
    t.trainingUserPage,
  ),
  lpuDownloadCertificateAccess: call(
    'lpu/download-certificate-access',
    MANAGERS,
    'Toggle one enrolment’s certificate download right (YES ↔ NO) by training-user id.',
    t.trainingIdRequest,
    t.certificateAccessResponse,
  ),

  assignTrainersToTraining: call(
    'assign-trainers-to-training',
    MANAGERS,
    'Set the trainers of a training (replaces the set).',
    t.assignTrainersRequest,
    t.trainingMessageResponse,
  ),
  getTrainingTrainers: call(
    'get-training-trainers',
    MANAGERS,
    'Trainers assigned to a training.',
    t.trainingSlugRequest,
    t.trainerItemList,
  ),
  getTrainersForAssignment: call(
    'get-trainers-for-assignment',
    MANAGERS,
    'Active trainer accounts that can be assigned to a training.',
    empty,
    t.trainerItemList,
  ),
  trainerAssignedTrainings: call(
    'trainer/assigned-trainings',
    TRAINER,
    'Trainings assigned to the calling trainer.',
    empty,
    t.trainingList,
  ),

  getTrainingSyllabus: call(
    'get-training-syllabus',
    STAFF,
    'Syllabus topics of a training, with average rating.',
    t.trainingSlugRequest,
    t.syllabusList,
  ),
  addTrainingSyllabus: call(
    'add-training-syllabus',
    MANAGERS,
    'Add one syllabus topic (optional planned start and end time).',
    t.addSyllabusRequest,
    t.trainingAddedResponse,
  ),
  uploadTrainingSyllabus: call(
    'upload-training-syllabus',
    MANAGERS,
    'Add syllabus topics from an .xls/.xlsx file (columns topic_name, start_time, end_time; /download-template {type: training-syllabus}) plus the field slug; all rows or none.',
    t.trainingUploadRequest,
    importResponse,
    { multipart: true },
  ),
  deleteTrainingSyllabus: call(
    'delete-training-syllabus',
    MANAGERS,
    'Delete a syllabus topic that has not started.',
    t.trainingIdRequest,
    t.trainingMessageResponse,
  ),
  updateTrainingStartStatus: call(
    'update-training-start-status',
    STAFF,
    'Advance a topic: 0 Schedule → 1 Starting (the training becomes started) → 2 Completed.',
    t.trainingIdRequest,
    t.topicStatusResponse,
  ),
  trainingAttendancesDetails: call(
    'training-attendances-details',
    STAFF,
    'Attendance of a training (by id): per learner per topic, join and leave time and rating.',
    t.trainingIdRequest,
    t.attendanceList,
  ),

  lpuGetTrainings: call(
    'lpu/get-trainings',
    NON_ADMIN,
    'The trainings the caller is enrolled in (/my-trainings is every non-admin role’s screen; an empty list when none); paged, searchable by name.',
    t.myTrainingsRequest,
    t.learnerTrainingPage,
  ),
  lpuTrainingStartStatus: call(
    'lpu/training-start-status',
    LEARNERS,
    '1 when the training has started (status 1 or a topic is Starting), else 0.',
    t.trainingSlugRequest,
    t.startStatusResponse,
  ),
  checkTrainingStatus: call(
    'check-training-status',
    LEARNERS,
    'Status of a training the caller is enrolled in.',
    t.trainingSlugRequest,
    t.checkTrainingStatusResponse,
  ),
  getUserTrainingDetails: call(
    'get-user-training-details',
    LEARNERS,
    'Topics of a training the caller is enrolled in, with the caller’s join, leave and rating.',
    t.trainingSlugRequest,
    t.learnerTopicList,
  ),
  addTrainingAttendance: call(
    'add-training-attendance',
    LEARNERS,
    'Record the caller’s join of a topic (topic id); only while the topic is Starting; idempotent while joined.',
    t.trainingIdRequest,
    t.trainingAddedResponse,
  ),
  addTrainingRating: call(
    'add-training-rating',
    LEARNERS,
    'Rate a completed topic 1–5 (topic id); a second rating replaces the first.',
    t.ratingRequest,
    t.trainingMessageResponse,
  ),
  lpuDashboardData: call(
    'lpu/dashboard-data',
    LEARNERS,
    'Learner dashboard: the caller’s upcoming trainings.',
    empty,
    t.learnerDashboardResponse,
  ),

  lpUpdateTrainingJoinStatus: call(
    'lp/update-training-join-status',
    PARTICIPANTS,
    'Conference join (is_start) and leave (is_end with elapsed seconds in min) of an enrolled learner; minutes are capped by server time.',
    t.joinStatusRequest,
    t.joinStatusResponse,
  ),
  lpGetTrainingJoinCount: call(
    'lp/get-training-join-count',
    PARTICIPANTS,
    'Sessions of the caller in the training’s conference counting this one (1 = load, more = open elsewhere); isModerator 1 for managers and assigned trainers; isAssing 1 when the caller may join.',
    t.trainingSlugRequest,
    t.joinCountResponse,
  ),
} satisfies Record<string, ApiCall>;
