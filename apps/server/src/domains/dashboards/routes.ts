import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { adminCharts, managerCharts } from './charts';

/** The dashboards' charts (decision 0046); the number cards stay on each domain's dashboard-data call. */
export function dashboardRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.adminDashboardCharts, () => adminCharts(deps));
  defineCall(app, deps, API.dashboardCharts, ({ auth }) => managerCharts(deps, auth));
}
