import { describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST, ERROR_CODES, errorBody, errorCodeForStatus, isErrorCode } from '../src';

describe('error codes', () => {
  it('every code is documented with its meaning and its status', () => {
    expect(ERROR_CODE_LIST.length).toBeGreaterThan(0);
    for (const code of ERROR_CODE_LIST) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(ERROR_CODES[code]).toMatch(/\(\d{3}[^)]*\)\.$/);
    }
  });

  it('each refusal status has a code of the set; others fall back to bad_request or internal_error', () => {
    for (const status of [400, 401, 403, 404, 405, 409, 413, 415, 416, 422, 429, 500, 503]) {
      const code = errorCodeForStatus(status);
      expect(isErrorCode(code)).toBe(true);
      expect(ERROR_CODES[code]).toContain(`${status}`);
    }
    expect(errorCodeForStatus(418)).toBe('bad_request');
    expect(errorCodeForStatus(502)).toBe('internal_error');
    expect(isErrorCode('nope')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('the error body is a message and a code of the set', () => {
    expect(errorBody.safeParse({ message: 'Not Found', code: 'not_found' }).success).toBe(true);
    expect(errorBody.safeParse({ message: 'Not Found', code: 'missing' }).success).toBe(false);
  });
});
