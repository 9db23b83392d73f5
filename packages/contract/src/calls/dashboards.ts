import { call, empty } from '../api-base.js';
import type { Role } from '../roles.js';
import * as d from '../schemas/dashboards.js';

const ADMIN: readonly Role[] = ['admin'];
/** a provider its own trainings and courses; an organization and its sub-admins the organization's */
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];

/** The figures behind the dashboards' charts (issue 32 item 15, decision 0046). */
export const DASHBOARD_CALLS = {
  adminDashboardCharts: call(
    'admin/dashboard-charts',
    ADMIN,
    'Admin home charts: platform enrolments and revenue per month (last 12 months), attendance and pre/post assessment scores of the latest trainings.',
    empty,
    d.dashboardChartsResponse,
  ),
  dashboardCharts: call(
    'dashboard-charts',
    MANAGERS,
    "Manager dashboard charts: the tenant's enrolments and course revenue per month (last 12 months), attendance and pre/post assessment scores of its latest trainings.",
    empty,
    d.dashboardChartsResponse,
  ),
};
