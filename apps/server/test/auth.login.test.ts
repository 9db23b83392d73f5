import { MSG, ROLE_HOME } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, sessions } from '../src/db/schema';
import { createTestApp, PASSWORD, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/login', () => {
  it('answers the session with token and roles; the token is stored only as a hash', async () => {
    const user = await t.createUser({ role: 'provider', first_name: 'Priya' });
    const res = await t.post('login', { email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.success).toMatchObject({
      roles: ['provider'],
      role: 'provider',
      first_name: 'Priya',
      email: user.email,
      _id: user.id,
      slug: user.slug,
    });
    expect(res.body.success.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const rows = await t.deps.db.select().from(sessions).where(eq(sessions.user_id, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toBe(res.body.success.token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ROLE_HOME[res.body.success.role as 'provider']).toBe('/learning-provider');
  });

  it('422 per field', async () => {
    const res = await t.post('login', {});
    expect(res.status).toBe(422);
    expect(res.body.email).toEqual(['The email field is required.']);
    expect(res.body.password).toEqual(['The password field is required.']);
    const bad = await t.post('login', { email: 'not-an-email', password: 'x' });
    expect(bad.body.email).toEqual(['The email must be a valid email address.']);
  });

  it('rejects a wrong password and an unknown e-mail the same way', async () => {
    const user = await t.createUser();
    const wrong = await t.post('login', { email: user.email, password: 'wrong-password' });
    const unknown = await t.post('login', { email: 'nobody@example.test', password: 'wrong-password' });
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.email).toEqual([MSG.invalidCredentials]);
  });

  it('403 while waiting for approval, and for a deactivated account or organization', async () => {
    const pending = await t.createUser({ role: 'provider', is_approved: 0 });
    const res = await t.post('login', { email: pending.email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.awaitingApproval);
    expect(res.body.code).toBe('awaiting_approval');

    const inactive = await t.createUser({ status: 0 });
    expect((await t.post('login', { email: inactive.email, password: PASSWORD })).status).toBe(403);

    const org = await t.createOrganization();
    const member = await t.createUser({ role: 'organization_user', organization_id: org.id });
    expect((await t.post('login', { email: member.email, password: PASSWORD })).status).toBe(200);
    await t.deps.db.update(organizations).set({ status: 0 }).where(eq(organizations.id, org.id));
    const blocked = await t.post('login', { email: member.email, password: PASSWORD });
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(MSG.accountInactive);
    expect(blocked.body.code).toBe('account_inactive');
  });

  it('enterprise login answers a clear 422 on email until SSO is configured', async () => {
    const user = await t.createUser();
    const res = await t.post('login', { email: user.email, is_sso: true });
    expect(res.status).toBe(422);
    expect(res.body.email).toEqual([MSG.ssoNotConfigured]);
  });
});

describe('one current session per account', () => {
  it('is_previous true (the default) revokes the earlier session', async () => {
    const { token: first, user } = await t.loginAs();
    expect((await t.post('current-token', { email: user.email }, first)).body).toBe(first);
    const second = await t.post('login', { email: user.email, password: PASSWORD });
    expect(second.status).toBe(200);
    const token2 = second.body.success.token;
    expect(token2).not.toBe(first);
    // the first browser is now logged out
    expect((await t.post('change-password', {}, first)).status).toBe(401);
    expect((await t.post('current-token', { email: user.email }, first)).body).toBe('');
    expect((await t.post('current-token', { email: user.email }, token2)).body).toBe(token2);
  });

  it('is_previous false with a live session answers 403 and keeps the first session', async () => {
    const { token, user } = await t.loginAs();
    const res = await t.post('login', { email: user.email, password: PASSWORD, is_previous: false });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.loggedInElsewhere);
    expect(res.body.code).toBe('logged_in_elsewhere');
    expect((await t.post('current-token', { email: user.email }, token)).body).toBe(token);
    // after logging out, is_previous false is fine
    expect((await t.post('logout', { token }, token)).status).toBe(200);
    expect((await t.post('login', { email: user.email, password: PASSWORD, is_previous: 0 })).status).toBe(200);
  });
});

describe('POST /api/logout', () => {
  it('401 without a token, then revokes the session', async () => {
    expect((await t.post('logout', {})).status).toBe(401);
    expect((await t.post('logout', {}, 'made-up-token')).body).toEqual({
      message: 'Unauthenticated.',
      code: 'unauthenticated',
    });
    const { token } = await t.loginAs();
    expect((await t.post('logout', { token }, token)).status).toBe(200);
    expect((await t.post('logout', { token }, token)).status).toBe(401);
  });
});

describe('POST /api/current-token', () => {
  it('echoes the caller token only for the live session of that e-mail', async () => {
    const { token, user } = await t.loginAs();
    expect((await t.post('current-token', { email: user.email }, token)).body).toBe(token);
    expect((await t.post('current-token', { email: 'other@example.test' }, token)).body).toBe('');
    expect((await t.post('current-token', { email: user.email })).body).toBe('');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/current-token',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.headers['content-type']).toContain('application/json');
    expect(JSON.parse(res.body)).toBe(token);
  });
});

describe('rate limits', () => {
  it('/login answers 429 Too Many Attempts. per account after the limit', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const user = await limited.createUser();
      for (let i = 0; i < 3; i++) {
        expect((await limited.post('login', { email: user.email, password: 'wrong-one' })).status).toBe(422);
      }
      const res = await limited.post('login', { email: user.email, password: PASSWORD });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ message: MSG.tooManyAttempts, code: 'too_many_attempts' });
      // another account from the same address still has budget (per-IP allows more)
      const other = await limited.createUser();
      expect((await limited.post('login', { email: other.email, password: PASSWORD })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('/login answers 429 per IP across accounts', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        statuses.push((await limited.post('login', { email: `nobody${i}@example.test`, password: 'x' })).status);
      }
      expect(statuses.slice(0, 6).every((s) => s === 422)).toBe(true);
      expect(statuses[6]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
