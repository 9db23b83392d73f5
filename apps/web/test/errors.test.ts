import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { formatRowError, mapApiError } from '../src/api/errors';

describe('mapApiError (spec 01 §8)', () => {
  it('422 puts the first message of each field under that field', () => {
    const result = mapApiError(422, {
      email: ['The email has already been taken.', 'second'],
      first_name: ['The first name field is required.'],
    });
    expect(result.fields).toEqual({
      email: 'The email has already been taken.',
      first_name: 'The first name field is required.',
    });
    expect(result.other_error).toBeNull();
  });

  it('422 keeps an other_error key at the top and Excel row errors apart', () => {
    const result = mapApiError(422, {
      other_error: ['Pick a file.'],
      errors: [{ row: 3, attribute: 'email', errors: ['The email must be a valid email address.'] }],
    });
    expect(result.other_error).toBe('Pick a file.');
    expect(result.rows.map(formatRowError)).toEqual(['Row 3 email The email must be a valid email address.']);
  });

  it('422 without a field bag still says something', () => {
    expect(mapApiError(422, null).other_error).toBe(MSG.givenDataInvalid);
  });

  it.each([
    [405, { message: 'whatever' }, 'Method Not Allowed'],
    [500, { message: 'stack trace' }, 'Internal Server Error.'],
    [403, { message: 'Your account is waiting for approval.' }, 'Your account is waiting for approval.'],
    [403, {}, MSG.forbidden],
    [429, { message: 'Too Many Attempts.' }, 'Too Many Attempts.'],
    [429, null, MSG.tooManyAttempts],
    [401, { message: 'Unauthenticated.' }, 'Unauthenticated.'],
    [404, { message: 'Not Found' }, 'Something went worng.'],
    [400, { message: 'Bad' }, 'Something went worng.'],
    [502, null, 'Something went worng.'],
    [0, null, 'Something went worng.'],
  ])('status %i → other_error', (status, body, text) => {
    const result = mapApiError(status, body);
    expect(result.other_error).toBe(text);
    expect(result.fields).toEqual({});
  });
});
