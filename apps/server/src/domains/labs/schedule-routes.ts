import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { labSchedules } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { whenDatabaseReady } from '../../platform/http/database-ready';
import { defineCall } from '../../platform/http/define-call';
import { resumeLabSchedules } from './schedule';
import { tieLab, trainingLabSchedules, untieLab, updateScheduleLead } from './schedule-calls';
import { trainingLabViews } from './watch';

/** Labs on a training's schedule and the over-the-shoulder view (decision 0026). */
export function labScheduleRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.trainingLabSchedules, ({ auth, body }) => trainingLabSchedules(deps, auth, body.slug));
  defineCall(
    app,
    deps,
    API.tieLabToTraining,
    audited(API.tieLabToTraining, { type: 'lab-schedule' }, ({ auth, body }) => tieLab(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.untieLabFromTraining,
    audited(API.untieLabFromTraining, { type: 'lab-schedule', table: labSchedules, key: 'id' }, ({ auth, body }) =>
      untieLab(deps, auth, body.id),
    ),
  );
  defineCall(
    app,
    deps,
    API.updateLabScheduleLead,
    audited(API.updateLabScheduleLead, { type: 'lab-settings' }, ({ auth, body }) =>
      updateScheduleLead(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.trainingLabViews, ({ auth, body }) => trainingLabViews(deps, auth, body.slug));

  // a restart neither misses nor doubles a scheduled start or stop: catch up, then keep one sweep queued
  whenDatabaseReady(app, async () => {
    try {
      await resumeLabSchedules(deps);
    } catch (e) {
      app.log.error({ err: e }, 'lab schedule catch-up failed');
    }
  });
}
