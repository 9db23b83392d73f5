import { CONFERENCE_ENDPOINTS } from './domains/conference/other-endpoints';
import { COURSE_ENDPOINTS } from './domains/courses/other-endpoints';
import { LAB_ENDPOINTS } from './domains/labs/other-endpoints';
import { PAYMENT_ENDPOINTS } from './domains/payments/other-endpoints';
import { RECORDING_ENDPOINTS } from './domains/recordings/other-endpoints';
import { SSO_ENDPOINTS } from './domains/sso/other-endpoints';
import { SYSTEM_ENDPOINTS } from './domains/system/other-endpoints';
import type { OtherEndpoint } from './platform/http/other-endpoints';

/**
 * Every endpoint that is not a call of the contract's permission table, each described by its own
 * domain. Assembled here, on the top floor, because the platform may not import the domains: the API
 * document (platform/http/openapi.ts), the access snapshot and the route-coverage test get this list
 * handed in. The order is the order of the API document's paths.
 */
export const OTHER_ENDPOINTS: readonly OtherEndpoint[] = [
  ...SYSTEM_ENDPOINTS,
  ...RECORDING_ENDPOINTS,
  ...COURSE_ENDPOINTS,
  ...SSO_ENDPOINTS,
  ...PAYMENT_ENDPOINTS,
  ...CONFERENCE_ENDPOINTS,
  ...LAB_ENDPOINTS,
];
