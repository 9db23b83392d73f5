import { z } from 'zod';

/**
 * The machine-readable `code` every refusal carries beside its `message` (or beside the field bag of a
 * 422). A closed set: clients and tests match on these rather than on wording. The texts, statuses and
 * body shapes stay as the API conventions fix them; `code` is only added.
 *
 * Each code with its meaning, in the order of the statuses that carry it (the API reference lists them).
 */
export const ERROR_CODES = {
  bad_request: 'A malformed request the server cannot read, other than a body that is not JSON (400).',
  invalid_json: 'The request body is not valid JSON (400).',
  unauthenticated: 'No token, or an unknown, expired or revoked token (401).',
  forbidden: 'Signed in but not allowed: wrong role, not the owner, another tenant’s record (403).',
  awaiting_approval: 'The account is waiting for approval (403 at sign-in).',
  account_inactive: 'The account or its organization is deactivated (403 at sign-in).',
  logged_in_elsewhere: 'The account has a live session elsewhere; sign in again with is_previous to end it (403).',
  not_found: 'The record named by slug or id does not exist or is not visible to the caller; an unknown path (404).',
  method_not_allowed: 'Another method on an existing path (405).',
  conflict: 'The request lost a race with another one (409).',
  payload_too_large: 'The body or upload is too large (413).',
  unsupported_media_type: 'The body or file type is not accepted (415).',
  range_not_satisfiable: 'The byte range asked for lies outside the file (416).',
  validation_failed:
    'Validation failed: the body is the field bag (one list of messages per field) or the rows of an import (422).',
  too_many_attempts: 'Rate limit reached (429).',
  internal_error: 'A bug: nothing of it is told but this code (500).',
  service_unavailable: 'A service we depend on is unreachable; try again after Retry-After (503).',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

/** The code a refusal carries when nothing more specific is said: one per status. */
const BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'validation_failed',
  429: 'too_many_attempts',
  500: 'internal_error',
  503: 'service_unavailable',
};

export function errorCodeForStatus(status: number): ErrorCode {
  return BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The error body of every refusal but a 422: `{"message": "...", "code": "..."}`. */
export const errorBody = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODE_LIST as [ErrorCode, ...ErrorCode[]]),
});
export type ErrorBody = z.infer<typeof errorBody>;
