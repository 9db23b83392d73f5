import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, apiPost, errorCodeOf } from '../src/api/client';
import { stubFetch } from './fetch-stub';

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the call was not refused');
    },
    (e: unknown) => e,
  );

// Every refusal carries a code (issue 42): X-Error-Code always, and `code` beside a message body.
describe('errorCodeOf', () => {
  it('reads the X-Error-Code header of the answer', async () => {
    stubFetch({
      login: () => ({
        status: 403,
        body: { message: MSG.awaitingApproval, code: 'awaiting_approval' },
        headers: { 'X-Error-Code': 'awaiting_approval' },
      }),
    });
    const error = await refusalOf(apiPost('login', { email: 'a@demo.test', password: 'x' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(errorCodeOf(error)).toBe('awaiting_approval');
    // the screen still shows the words
    expect((error as ApiError).formErrors.other_error).toBe(MSG.awaitingApproval);
  });

  it('a 422 keeps its field bag: a field named code stays a field, the code comes from the header', async () => {
    stubFetch({
      'sso-exchange': () => ({
        status: 422,
        body: { code: ['The code field is required.'] },
        headers: { 'X-Error-Code': 'validation_failed' },
      }),
    });
    // @ts-expect-error the body misses its code on purpose: the server's 422 is what is tested
    const error = await refusalOf(apiPost('sso-exchange', {}));
    expect(errorCodeOf(error)).toBe('validation_failed');
    expect((error as ApiError).formErrors.fields).toEqual({ code: 'The code field is required.' });
  });

  it('falls back to the body’s code when the header did not come through', () => {
    expect(errorCodeOf(new ApiError(401, { message: 'Unauthenticated.', code: 'unauthenticated' }))).toBe(
      'unauthenticated',
    );
    // a field bag's list of messages is never read as a code
    expect(errorCodeOf(new ApiError(422, { code: ['The code is invalid.'] }))).toBeNull();
  });

  it('is null without an answer, for an answer without a code, and for anything but an ApiError', () => {
    expect(errorCodeOf(new ApiError(0, null))).toBeNull();
    expect(errorCodeOf(new ApiError(403, { message: 'x' }))).toBeNull();
    expect(errorCodeOf(new ApiError(403, 'Forbidden', ''))).toBeNull();
    expect(errorCodeOf(new Error('x'))).toBeNull();
    expect(errorCodeOf(null)).toBeNull();
  });
});
