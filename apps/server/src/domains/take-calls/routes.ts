import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { takeCalls } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import * as answer from './answer';
import * as manage from './manage';
import { searchTrainers } from './search';

/** Take calls (spec 02 §7 'Take calls'): managers sound out trainers, trainers answer. */
export function takeCallRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getTrainerList, ({ body }) => searchTrainers(deps, body));
  defineCall(
    app,
    deps,
    API.createTakeCall,
    audited(API.createTakeCall, { type: 'take_call' }, ({ auth, body }) => manage.createTakeCall(deps, auth, body)),
  );
  defineCall(app, deps, API.showTakeCall, ({ auth, body }) => manage.takeCallList(deps, auth, body), {
    // a take call's status turns to ended by the clock
    cache: { tables: manage.TAKE_CALL_LIST_TABLES, until: (page) => manage.nextEnd(page.list) },
  });
  defineCall(
    app,
    deps,
    API.rescheduleTakeCall,
    audited(API.rescheduleTakeCall, { type: 'take_call', table: takeCalls, key: 'id' }, ({ auth, body }) =>
      manage.rescheduleTakeCall(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.showTakeCallDetails, ({ auth, body }) => manage.takeCallDetails(deps, auth, body));
  defineCall(
    app,
    deps,
    API.assignTrainerToTraining,
    audited(API.assignTrainerToTraining, { type: 'take_call', key: 'take_call_id' }, ({ auth, body }) =>
      manage.assignFromTakeCall(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.getTrainingTrainersRequirementStatus, ({ auth, body }) =>
    manage.requirementStatus(deps, auth, body.trainer_id, body.take_call_id),
  );
  defineCall(app, deps, API.trainerTakeCalls, ({ auth, body }) => answer.trainerTakeCalls(deps, auth, body));
  defineCall(app, deps, API.rescheduleTrainerTakeCall, ({ auth, body }) => answer.answerTakeCall(deps, auth, body));
  defineCall(app, deps, API.getTrainingRequirements, ({ auth, body }) =>
    answer.trainingRequirements(deps, auth, body.take_call_id),
  );
  defineCall(app, deps, API.updateTrainingRequirement, ({ auth, body }) =>
    answer.confirmRequirements(deps, auth, body.ids, body.take_call_id),
  );
}
