import type { ApiAccess, ApiCall } from './api-base.js';
import { ASSESSMENT_CALLS } from './calls/assessments.js';
import { AUDIT_CALLS } from './calls/audit.js';
import { AUTH_CALLS } from './calls/auth.js';
import { CATALOG_CALLS } from './calls/catalog.js';
import { CERTIFICATE_CALLS } from './calls/certificates.js';
import { CONFERENCE_CALLS } from './calls/conference.js';
import { COURSE_CALLS } from './calls/courses.js';
import { DASHBOARD_CALLS } from './calls/dashboards.js';
import { LAB_SCHEDULE_CALLS } from './calls/lab-schedules.js';
import { LAB_CALLS } from './calls/labs.js';
import { MASTER_DATA_CALLS } from './calls/master-data.js';
import { ORGANIZATION_CALLS } from './calls/organizations.js';
import { PAYMENT_CALLS } from './calls/payments.js';
import { RECORDING_CALLS } from './calls/recordings.js';
import { SSO_CALLS } from './calls/sso.js';
import { STUDENT_REGISTRATION_CALLS } from './calls/student-registration.js';
import { TAKE_CALL_CALLS } from './calls/take-calls.js';
import { TRAINER_CALLS } from './calls/trainers.js';
import { TRAINING_CALLS } from './calls/trainings.js';

export * from './api-base.js';

/**
 * The permission table: every API call, who may make it, and its request and response schemas.
 * One file per domain under calls/; the server registers routes only from this table.
 */
export const API = {
  ...AUTH_CALLS,
  ...ORGANIZATION_CALLS,
  ...MASTER_DATA_CALLS,
  ...CERTIFICATE_CALLS,
  ...STUDENT_REGISTRATION_CALLS,
  ...TRAINING_CALLS,
  ...CONFERENCE_CALLS,
  ...RECORDING_CALLS,
  ...LAB_CALLS,
  ...LAB_SCHEDULE_CALLS,
  ...ASSESSMENT_CALLS,
  ...CATALOG_CALLS,
  ...PAYMENT_CALLS,
  ...COURSE_CALLS,
  ...SSO_CALLS,
  ...TRAINER_CALLS,
  ...TAKE_CALL_CALLS,
  ...AUDIT_CALLS,
  ...DASHBOARD_CALLS,
} satisfies Record<string, ApiCall>;

export type ApiName = keyof typeof API;
export const API_CALLS: readonly ApiCall[] = Object.values(API);

export function mayCall(access: ApiAccess, roles: readonly string[] | null): boolean {
  if (access === 'public') return true;
  if (!roles) return false;
  if (access === 'authenticated') return true;
  return access.some((r) => roles.includes(r));
}
