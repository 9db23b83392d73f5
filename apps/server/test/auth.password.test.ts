import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../src/db/schema';
import { createTestApp, PASSWORD, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function requestReset(email: string): Promise<string> {
  const res = await t.post('forgot-password', { email });
  expect(res.status).toBe(200);
  const mails = (await t.outbox()).filter((m) => m.to === email);
  const link = /http:\/\/app\.test\/reset-password\/([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.text);
  if (!link?.[1]) throw new Error('no reset link in the mail');
  return link[1];
}

describe('POST /api/forgot-password', () => {
  it('mails a reset link and answers the same for an unknown e-mail', async () => {
    const user = await t.createUser();
    const known = await t.post('forgot-password', { email: user.email });
    const unknown = await t.post('forgot-password', { email: 'ghost@example.test' });
    expect(known).toEqual({ status: 200, body: { message: MSG.resetLinkSent } });
    expect(unknown).toEqual(known);
    const mails = await t.outbox();
    expect(mails.some((m) => m.to === user.email && m.text.includes('/reset-password/'))).toBe(true);
    expect(mails.some((m) => m.to === 'ghost@example.test')).toBe(false);
  });

  it('422 without a valid email', async () => {
    expect((await t.post('forgot-password', {})).body.email).toEqual(['The email field is required.']);
    expect((await t.post('forgot-password', { email: 'x' })).body.email).toEqual([
      'The email must be a valid email address.',
    ]);
  });

  it('is rate limited per account', async () => {
    const limited = await createTestApp({ FORGOT_RATE_LIMIT: '2' });
    try {
      const user = await limited.createUser();
      expect((await limited.post('forgot-password', { email: user.email })).status).toBe(200);
      expect((await limited.post('forgot-password', { email: user.email })).status).toBe(200);
      const res = await limited.post('forgot-password', { email: user.email });
      expect(res).toEqual({ status: 429, body: { message: MSG.tooManyAttempts, code: 'too_many_attempts' } });
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/reset-password', () => {
  it('sets the new password once; the link cannot be used twice; sessions are revoked', async () => {
    const { token: session, user } = await t.loginAs();
    const i_t = await requestReset(user.email);
    const res = await t.post('reset-password', { i_t, password: 'BrandNew#1', password_confirmation: 'BrandNew#1' });
    expect(res).toEqual({ status: 200, body: { message: MSG.passwordReset } });
    expect((await t.post('current-token', { email: user.email }, session)).body).toBe('');
    expect((await t.post('login', { email: user.email, password: PASSWORD })).status).toBe(422);
    expect((await t.post('login', { email: user.email, password: 'BrandNew#1' })).status).toBe(200);
    const again = await t.post('reset-password', { i_t, password: 'Another#12', password_confirmation: 'Another#12' });
    expect(again.status).toBe(422);
    expect(again.body.i_t).toEqual([MSG.resetTokenInvalid]);
  });

  it('expires after 60 minutes', async () => {
    const user = await t.createUser();
    const i_t = await requestReset(user.email);
    const [row] = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.user_id, user.id));
    const minutes = (row!.expires_at.getTime() - row!.created_at.getTime()) / 60_000;
    expect(Math.round(minutes)).toBe(60);
    await t.deps.db
      .update(passwordResets)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.user_id, user.id));
    const res = await t.post('reset-password', { i_t, password: 'BrandNew#1', password_confirmation: 'BrandNew#1' });
    expect(res.status).toBe(422);
    expect((await t.post('login', { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it('422 per field', async () => {
    const res = await t.post('reset-password', {});
    expect(res.status).toBe(422);
    expect(res.body.password).toEqual(['The password field is required.']);
    expect(res.body.password_confirmation).toEqual(['The password confirmation field is required.']);
    expect(res.body.i_t).toEqual(['The i t field is required.']);
    const mismatch = await t.post('reset-password', { i_t: 'x', password: 'Abcdefgh1', password_confirmation: 'nope' });
    expect(mismatch.body.password).toEqual(['The password confirmation does not match.']);
    const unknown = await t.post('reset-password', {
      i_t: 'bogus',
      password: 'Abcdefgh1',
      password_confirmation: 'Abcdefgh1',
    });
    expect(unknown.body.i_t).toEqual([MSG.resetTokenInvalid]);
  });
});

describe('POST /api/change-password', () => {
  it('401 without a session', async () => {
    expect((await t.post('change-password', { current_password: PASSWORD })).status).toBe(401);
  });

  it('422 per field and for a wrong current password', async () => {
    const { token } = await t.loginAs();
    const res = await t.post('change-password', {}, token);
    expect(Object.keys(res.body).sort()).toEqual(['current_password', 'password', 'password_confirmation']);
    const wrong = await t.post(
      'change-password',
      { current_password: 'not-it-at-all', password: 'Changed#123', password_confirmation: 'Changed#123' },
      token,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.current_password).toEqual([MSG.currentPasswordWrong]);
  });

  it('changes the password for every role', async () => {
    for (const role of ['user', 'admin', 'trainer', 'provider_user'] as const) {
      const { token, user } = await t.loginAs({ role });
      const res = await t.post(
        'change-password',
        { current_password: PASSWORD, password: 'Changed#123', password_confirmation: 'Changed#123' },
        token,
      );
      expect(res).toEqual({ status: 200, body: { message: MSG.passwordChanged } });
      // the session that changed it stays signed in
      expect((await t.post('current-token', { email: user.email }, token)).body).toBe(token);
      expect((await t.post('logout', {}, token)).status).toBe(200);
      expect((await t.post('login', { email: user.email, password: 'Changed#123' })).status).toBe(200);
    }
  });
});
