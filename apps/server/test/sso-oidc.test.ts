import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type organizations, users } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { orgWithOwner } from './org-fixtures';
import { signInAtOidc, startOidcIdp, type TestOidcIdp } from './sso-idps';
import { accountsWithEmail, domainOf, getCallback, saveSso } from './sso-support';

let t: TestApp;
let idp: TestOidcIdp;
let domain: string;
let org: typeof organizations.$inferSelect;
let callbackUrl: string;
let ownerToken: string;

beforeAll(async () => {
  // the test identity provider listens on 127.0.0.1, which the outbound guard refuses unless allowed
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' });
  domain = domainOf('oidc');
  const owner = await orgWithOwner(t, { org_domain: domain });
  org = owner.organization;
  ownerToken = owner.token;
  callbackUrl = `http://app.test/sso/oidc/${org.slug}/callback`;
  idp = await startOidcIdp([callbackUrl], ['trainlab-admins']);
  const res = await saveSso(t, settings(), owner.token);
  expect(res.status).toBe(200);
  expect(res.body.service_provider.redirect_uri).toBe(callbackUrl);
});
afterAll(async () => {
  await idp.close();
  await t.close();
});

/** the organization's settings (the stored secret is kept when none is sent again) */
const settings = (over: Record<string, unknown> = {}) => ({
  protocol: 'oidc',
  domains: [domain],
  oidc_issuer: idp.issuer,
  oidc_client_id: idp.clientId,
  oidc_client_secret: idp.clientSecret,
  ...over,
});

async function begin(email: string) {
  const res = await t.post('login', { email, is_sso: true });
  expect(res.status).toBe(200);
  const url = new URL(res.body.sso_redirect);
  expect(url.origin).toBe(idp.issuer);
  // PKCE, state and nonce are sent
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('state')).toBeTruthy();
  expect(url.searchParams.get('nonce')).toBeTruthy();
  expect(url.searchParams.get('redirect_uri')).toBe(callbackUrl);
  return res.body.sso_redirect as string;
}

describe('OpenID Connect sign-in', () => {
  it('signs a new person in at the provider and finds the same account the second time', async () => {
    const email = `meera@${domain}`;
    const back = await signInAtOidc(await begin(email), email);
    expect(back.startsWith(`${callbackUrl}?`)).toBe(true);
    const landed = await getCallback(t, back);
    expect(landed.error).toBeNull();
    const session = await t.post('sso-exchange', { code: landed.code });
    expect(session.status).toBe(200);
    expect(session.body.success).toMatchObject({
      email,
      first_name: 'Meera',
      last_name: 'Iyer',
      roles: ['organization_user'],
    });
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ organization_id: org.id, password_hash: null });

    const second = await getCallback(t, await signInAtOidc(await begin(email), email));
    const session2 = await t.post('sso-exchange', { code: second.code });
    expect(session2.body.success._id).toBe(user!.id);
    expect(await accountsWithEmail(t, email)).toBe(1);
  });

  it('our logout also answers the provider end-session URL with the ID token hint', async () => {
    const email = `bye@${domain}`;
    const landed = await getCallback(t, await signInAtOidc(await begin(email), email));
    const session = await t.post('sso-exchange', { code: landed.code });
    const token = session.body.success.token as string;
    const out = await t.post('logout', {}, token);
    expect(out.status).toBe(200);
    const end = new URL(out.body.sso_logout);
    expect(end.origin).toBe(idp.issuer);
    expect(end.pathname).toBe('/session/end');
    expect(end.searchParams.get('id_token_hint')).toBeTruthy();
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe('http://app.test/login');
    expect((await t.post('current-token', { email }, token)).body).toBe('');
  });

  it('refuses a state mismatch without creating an account', async () => {
    const email = `state@${domain}`;
    const back = new URL(await signInAtOidc(await begin(email), email));
    back.searchParams.set('state', 'not-the-state-we-sent');
    expect(await getCallback(t, back.href)).toEqual({ code: null, error: 'expired' });
    expect(await accountsWithEmail(t, email)).toBe(0);
  });

  it('refuses a replayed callback', async () => {
    const email = `replay@${domain}`;
    const back = await signInAtOidc(await begin(email), email);
    expect((await getCallback(t, back)).code).toBeTruthy();
    expect(await getCallback(t, back)).toEqual({ code: null, error: 'expired' });
  });

  it('refuses a code without its state, a forged code, and a provider error', async () => {
    const email = `forged@${domain}`;
    const back = new URL(await signInAtOidc(await begin(email), email));
    const noState = new URL(back.href);
    noState.searchParams.delete('state');
    expect(await getCallback(t, noState.href)).toEqual({ code: null, error: 'expired' });
    const forged = new URL(back.href);
    forged.searchParams.set('code', 'forged-code');
    expect(await getCallback(t, forged.href)).toEqual({ code: null, error: 'invalid_answer' });
    const url = new URL(await begin(email));
    const denied = `${callbackUrl}?error=access_denied&state=${url.searchParams.get('state')}`;
    expect(await getCallback(t, denied)).toEqual({ code: null, error: 'refused' });
    expect(await accountsWithEmail(t, email)).toBe(0);
  });

  it('refuses an answer for an e-mail outside the organization domains', async () => {
    const back = await signInAtOidc(await begin(`x@${domain}`), 'intruder@elsewhere.test');
    expect(await getCallback(t, back)).toEqual({ code: null, error: 'refused' });
    expect(await accountsWithEmail(t, 'intruder@elsewhere.test')).toBe(0);
  });

  it('refuses an ID token without email_verified: true, unless the organization says its provider never sends it', async () => {
    for (const email of [`unverified.a@${domain}`, `false.a@${domain}`]) {
      expect(await getCallback(t, await signInAtOidc(await begin(email), email))).toEqual({
        code: null,
        error: 'refused',
      });
      expect(await accountsWithEmail(t, email)).toBe(0);
    }
    const saved = await saveSso(t, settings({ oidc_email_verified_not_sent: true }), ownerToken);
    expect(saved.body.oidc_email_verified_not_sent).toBe(true);
    try {
      const absent = `unverified.b@${domain}`;
      expect((await getCallback(t, await signInAtOidc(await begin(absent), absent))).code).toBeTruthy();
      // an explicit false is refused whatever the setting
      const denied = `false.b@${domain}`;
      expect((await getCallback(t, await signInAtOidc(await begin(denied), denied))).error).toBe('refused');
    } finally {
      await saveSso(t, settings(), ownerToken);
    }
  });

  it('an answer in flight signs nobody in once single sign-on is switched off', async () => {
    const email = `late@${domain}`;
    const back = await signInAtOidc(await begin(email), email);
    await saveSso(t, settings({ enabled: false }), ownerToken);
    try {
      expect(await getCallback(t, back)).toEqual({ code: null, error: 'unknown_domain' });
      expect(await accountsWithEmail(t, email)).toBe(0);
    } finally {
      await saveSso(t, settings(), ownerToken);
    }
  });
});
