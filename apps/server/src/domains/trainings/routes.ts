import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { syllabusTopics, trainings, trainingUsers } from '../../db/schema';
import { audited, importTarget } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { joinCount, updateJoinStatus } from './attendance';
import { checkStatus, joinTopic, learnerDashboard, myTopics, myTrainings, rateTopic, startStatus } from './learner';
import { scheduleMarkPast } from './past';
import { firstEnd, TRAINING_LIST_TABLES } from './rows';
import { addTopic, advanceTopic, attendanceDetails, deleteTopic, importTopics, syllabus } from './syllabus';
import { tenantLearners } from './tenant-learners';
import { assignedTrainings, assignTrainers, trainersForAssignment, trainingTrainerList } from './trainers';
import { addTrainingUser, importTrainingUsers, toggleCertificateAccess, trainingUserList } from './training-users';
import {
  completedTrainings,
  createTraining,
  deleteTraining,
  managerDashboard,
  togglePublic,
  trainingDetails,
  upcomingTrainings,
  updateTraining,
} from './trainings';

/** Live trainings (spec 01 §7 training calls, spec 02 §7 'Trainee, meeting, syllabus, attendance'). */
export function trainingRoutes(app: FastifyInstance, deps: Deps): void {
  scheduleMarkPast(app, deps);
  defineCall(
    app,
    deps,
    API.createTraining,
    audited(API.createTraining, { type: 'training' }, ({ body, auth }) => createTraining(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.updateTraining,
    audited(API.updateTraining, { type: 'training', table: trainings, key: 'slug' }, ({ body, auth }) =>
      updateTraining(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.allTrainings, ({ body, auth }) => upcomingTrainings(deps, auth, body), {
    // an upcoming training leaves the list when it ends
    cache: { tables: TRAINING_LIST_TABLES, until: (page) => firstEnd(page.list) },
  });
  defineCall(app, deps, API.completedTrainings, ({ body, auth }) => completedTrainings(deps, auth, body), {
    // a training that ends enters this list by the clock: it shows within the cache's TTL
    cache: { tables: TRAINING_LIST_TABLES },
  });
  defineCall(app, deps, API.getTrainingDetails, ({ body, auth }) => trainingDetails(deps, auth, body.slug));
  defineCall(
    app,
    deps,
    API.lpPublicTraining,
    audited(API.lpPublicTraining, { type: 'training', table: trainings, key: 'id' }, ({ body, auth }) =>
      togglePublic(deps, auth, body.id),
    ),
  );
  defineCall(
    app,
    deps,
    API.deleteTrainings,
    audited(API.deleteTrainings, { type: 'training', table: trainings, key: 'slug' }, ({ body, auth }) =>
      deleteTraining(deps, auth, body.slug),
    ),
  );
  defineCall(app, deps, API.getDashboardData, ({ auth }) => managerDashboard(deps, auth));

  defineCall(
    app,
    deps,
    API.lpAddTrainingUser,
    audited(API.lpAddTrainingUser, { type: 'enrolment' }, ({ body, auth }) => addTrainingUser(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.lpImportTrainingUser,
    audited(API.lpImportTrainingUser, importTarget('enrolment-import', trainings, 'slug'), ({ auth, request }) =>
      importTrainingUsers(deps, auth, request),
    ),
  );
  defineCall(app, deps, API.getTenantLearners, ({ body, auth }) => tenantLearners(deps, auth, body));
  defineCall(app, deps, API.lpGetTrainingUsers, ({ body, auth }) => trainingUserList(deps, auth, body));
  defineCall(
    app,
    deps,
    API.lpuDownloadCertificateAccess,
    audited(
      API.lpuDownloadCertificateAccess,
      { type: 'enrolment', table: trainingUsers, key: 'id' },
      ({ body, auth }) => toggleCertificateAccess(deps, auth, body.id),
    ),
  );

  defineCall(
    app,
    deps,
    API.assignTrainersToTraining,
    audited(API.assignTrainersToTraining, { type: 'training-trainers' }, ({ body, auth }) =>
      assignTrainers(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.getTrainingTrainers, ({ body, auth }) => trainingTrainerList(deps, auth, body.slug));
  defineCall(app, deps, API.getTrainersForAssignment, () => trainersForAssignment(deps));
  defineCall(app, deps, API.trainerAssignedTrainings, ({ auth }) => assignedTrainings(deps, auth));

  defineCall(app, deps, API.getTrainingSyllabus, ({ body, auth }) => syllabus(deps, auth, body.slug));
  defineCall(
    app,
    deps,
    API.addTrainingSyllabus,
    audited(API.addTrainingSyllabus, { type: 'syllabus-topic' }, ({ body, auth }) => addTopic(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.uploadTrainingSyllabus,
    audited(API.uploadTrainingSyllabus, importTarget('syllabus-import', trainings, 'slug'), ({ auth, request }) =>
      importTopics(deps, auth, request),
    ),
  );
  defineCall(
    app,
    deps,
    API.deleteTrainingSyllabus,
    audited(
      API.deleteTrainingSyllabus,
      { type: 'syllabus-topic', table: syllabusTopics, key: 'id' },
      ({ body, auth }) => deleteTopic(deps, auth, body.id),
    ),
  );
  defineCall(app, deps, API.updateTrainingStartStatus, ({ body, auth }) => advanceTopic(deps, auth, body.id));
  defineCall(app, deps, API.trainingAttendancesDetails, ({ body, auth }) => attendanceDetails(deps, auth, body.id));

  defineCall(app, deps, API.lpuGetTrainings, ({ body, auth }) => myTrainings(deps, auth, body), {
    cache: { tables: TRAINING_LIST_TABLES },
  });
  defineCall(app, deps, API.lpuTrainingStartStatus, ({ body, auth }) => startStatus(deps, auth, body.slug));
  defineCall(app, deps, API.checkTrainingStatus, ({ body, auth }) => checkStatus(deps, auth, body.slug));
  defineCall(app, deps, API.getUserTrainingDetails, ({ body, auth }) => myTopics(deps, auth, body.slug));
  defineCall(app, deps, API.addTrainingAttendance, ({ body, auth }) => joinTopic(deps, auth, body.id));
  defineCall(app, deps, API.addTrainingRating, ({ body, auth }) => rateTopic(deps, auth, body));
  defineCall(app, deps, API.lpuDashboardData, ({ auth }) => learnerDashboard(deps, auth));

  defineCall(app, deps, API.lpUpdateTrainingJoinStatus, ({ body, auth }) => updateJoinStatus(deps, auth, body));
  defineCall(app, deps, API.lpGetTrainingJoinCount, ({ body, auth }) => joinCount(deps, auth, body.slug));
}
