import { MSG, SSO_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../src/db/schema';
import { createTestApp, PASSWORD, type TestApp } from './helpers';

// Issue 42: every refusal carries a stable code: in the X-Error-Code header always, and beside the
// message in a body of words. Texts, statuses and body shapes stay as they were.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  await t.close();
});

const HEADER = 'x-error-code';

/** The answer's status, parsed body and code header. */
const answer = (res: LightMyRequestResponse) => {
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body, code: res.headers[HEADER] };
};

const call = (path: string, payload: unknown = {}, token?: string, headers: Record<string, string> = {}) =>
  t.app
    .inject({
      method: 'POST',
      url: `/api/${path}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      payload: payload as object,
    })
    .then(answer);

describe('each status answers its code, in the body and in X-Error-Code', () => {
  it('401 without a token', async () => {
    expect(await call('logout')).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.', code: 'unauthenticated' },
      code: 'unauthenticated',
    });
  });

  it('403 for a role the call is not for', async () => {
    const { token } = await t.loginAs({ role: 'user' });
    expect(await call('admin/dashboard-charts', {}, token)).toEqual({
      status: 403,
      body: { message: MSG.forbidden, code: 'forbidden' },
      code: 'forbidden',
    });
  });

  it('404 for an unknown record and for an unknown path', async () => {
    expect(await call('verify-certificates', { ref_no: 'TL-2026-NOPE00' })).toEqual({
      status: 404,
      body: { message: MSG.noCertificateFound, code: 'not_found' },
      code: 'not_found',
    });
    expect(await call('does-not-exist')).toEqual({
      status: 404,
      body: { message: 'Not Found', code: 'not_found' },
      code: 'not_found',
    });
  });

  it('405 for another method on a call, and on a page path', async () => {
    const onCall = answer(await t.app.inject({ method: 'GET', url: '/api/login' }));
    expect(onCall).toEqual({
      status: 405,
      body: { message: 'Method Not Allowed', code: 'method_not_allowed' },
      code: 'method_not_allowed',
    });
    const onPage = answer(await t.app.inject({ method: 'PUT', url: '/some-page' }));
    expect(onPage).toEqual(onCall);
  });

  it('413 for a body over the limit', async () => {
    const res = answer(
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(1024 * 1024 + 1) }),
      }),
    );
    expect(res).toEqual({
      status: 413,
      body: { message: 'The uploaded content is too large.', code: 'payload_too_large' },
      code: 'payload_too_large',
    });
  });

  it('415 for a body type no call reads', async () => {
    const res = answer(
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/xml' },
        payload: '<login/>',
      }),
    );
    expect(res).toEqual({
      status: 415,
      body: { message: 'Unsupported Media Type', code: 'unsupported_media_type' },
      code: 'unsupported_media_type',
    });
  });

  it('400 invalid_json for a body that is not JSON', async () => {
    const res = answer(
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
    );
    expect(res).toEqual({
      status: 400,
      body: { message: 'The request body is not valid JSON.', code: 'invalid_json' },
      code: 'invalid_json',
    });
  });

  it('422 keeps its field bag exactly; the code is in the header only', async () => {
    expect(await call('login', { email: 'not-an-email', password: 'x' })).toEqual({
      status: 422,
      body: { email: ['The email must be a valid email address.'] },
      code: 'validation_failed',
    });
  });

  it('422 on /sso-exchange: its field named code stays the field', async () => {
    const res = await call('sso-exchange', {});
    expect(res.status).toBe(422);
    expect(res.code).toBe('validation_failed');
    expect(Object.keys(res.body as object)).toEqual(['code']);
    expect((res.body as { code: unknown }).code).toEqual([expect.any(String)]);
  });

  it('429 once the sign-in attempts are spent', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '1' });
    try {
      const user = await limited.createUser();
      await limited.post('login', { email: user.email, password: 'wrong-one' });
      const res = answer(
        await limited.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: user.email, password: PASSWORD },
        }),
      );
      expect(res).toEqual({
        status: 429,
        body: { message: MSG.tooManyAttempts, code: 'too_many_attempts' },
        code: 'too_many_attempts',
      });
    } finally {
      await limited.close();
    }
  });

  it('503 while the database is down, with Retry-After', async () => {
    const down = await createTestApp();
    try {
      await down.deps.database.close();
      const res = await down.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'a@b.test', password: 'whatever1' },
      });
      expect(res.headers['retry-after']).toBeDefined();
      expect(answer(res)).toEqual({
        status: 503,
        body: { message: 'Service temporarily unavailable.', code: 'service_unavailable' },
        code: 'service_unavailable',
      });
    } finally {
      await down.app.close();
    }
  });

  it('500 is internal_error and nothing more', async () => {
    const broken = await createTestApp();
    try {
      broken.app.log.level = 'silent';
      const user = await broken.createUser();
      broken.deps.mail.send = async () => {
        throw new Error('smtp://mailer:secret-password@mail.internal refused');
      };
      const res = await broken.app.inject({
        method: 'POST',
        url: '/api/forgot-password',
        payload: { email: user.email },
      });
      expect(answer(res)).toEqual({
        status: 500,
        body: { message: 'Internal Server Error.', code: 'internal_error' },
        code: 'internal_error',
      });
      expect(res.body).not.toContain('secret');
    } finally {
      await broken.close();
    }
  });

  it('a success carries no code', async () => {
    const { token } = await t.loginAs();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
      payload: { token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers[HEADER]).toBeUndefined();
    expect(res.json()).not.toHaveProperty('code');
  });
});

describe('refusals Fastify does not answer itself get the header too', () => {
  it('a WebSocket path asked by HEAD: 404 with not_found', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/ws/conference' });
    expect(res.statusCode).toBe(404);
    expect(res.headers[HEADER]).toBe('not_found');
  });

  it('tus uploads: our 401 body, tus’s own 412 and a refusal of an empty upload', async () => {
    expect(
      answer(await t.app.inject({ method: 'POST', url: '/api/course-uploads', headers: { 'tus-resumable': '1.0.0' } })),
    ).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.', code: 'unauthenticated' },
      code: 'unauthenticated',
    });
    const { token } = await t.loginAs({ role: 'provider' });
    const noVersion = await t.app.inject({
      method: 'POST',
      url: '/api/course-uploads',
      headers: { authorization: `Bearer ${token}`, 'upload-length': '10' },
    });
    expect(noVersion.statusCode).toBe(412);
    expect(noVersion.headers[HEADER]).toBe('bad_request');
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/course-uploads',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-length': '0',
        'upload-metadata': `filename ${Buffer.from('a.mp4').toString('base64')}`,
      },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.headers[HEADER]).toBe('validation_failed');
    // the field bag as it was
    expect(Object.keys(empty.json())).toEqual(['course_url']);
  });
});

describe('sign-in refusals name their case', () => {
  it('awaiting_approval, account_inactive (account or organization) and logged_in_elsewhere; texts unchanged', async () => {
    const pending = await t.createUser({ role: 'provider', is_approved: 0 });
    expect(await call('login', { email: pending.email, password: PASSWORD })).toEqual({
      status: 403,
      body: { message: MSG.awaitingApproval, code: 'awaiting_approval' },
      code: 'awaiting_approval',
    });

    const inactive = await t.createUser({ status: 0 });
    expect(await call('login', { email: inactive.email, password: PASSWORD })).toEqual({
      status: 403,
      body: { message: MSG.accountInactive, code: 'account_inactive' },
      code: 'account_inactive',
    });
    const org = await t.createOrganization();
    const member = await t.createUser({ role: 'organization_user', organization_id: org.id });
    await t.deps.db.update(organizations).set({ status: 0 }).where(eq(organizations.id, org.id));
    expect(await call('login', { email: member.email, password: PASSWORD })).toEqual({
      status: 403,
      body: { message: MSG.accountInactive, code: 'account_inactive' },
      code: 'account_inactive',
    });

    const { user } = await t.loginAs();
    expect(await call('login', { email: user.email, password: PASSWORD, is_previous: false })).toEqual({
      status: 403,
      body: { message: MSG.loggedInElsewhere, code: 'logged_in_elsewhere' },
      code: 'logged_in_elsewhere',
    });
  });
});

describe('what a client sends never changes the code', () => {
  it('a code in the request header or body is not echoed', async () => {
    const spoof = { 'x-error-code': 'internal_error' };
    // a refusal answers its own code
    expect(await call('logout', { code: 'internal_error' }, undefined, spoof)).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.', code: 'unauthenticated' },
      code: 'unauthenticated',
    });
    // a field named code stays the caller's field's refusal, in the header the 422's code
    expect(await call('sso-exchange', { code: 'internal_error' }, undefined, spoof)).toEqual({
      status: 422,
      body: { code: [SSO_MSG.codeInvalid] },
      code: 'validation_failed',
    });
    // a login with a made-up code field answers as without it
    const user = await t.createUser();
    expect(
      await call('login', { email: user.email, password: 'wrong-one', code: 'logged_in_elsewhere' }, undefined, spoof),
    ).toEqual({
      status: 422,
      body: { email: [MSG.invalidCredentials] },
      code: 'validation_failed',
    });
    // a success gets no code from the request either
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: spoof,
      payload: { email: user.email, password: PASSWORD, code: 'forbidden' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers[HEADER]).toBeUndefined();
  });
});
