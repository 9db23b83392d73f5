import { MSG, SSO_DOMAINS_MAX, SSO_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { organizations, ssoSettings, users } from '../src/db/schema';
import { createTestApp, PASSWORD, rolesExcept, type TestApp } from './helpers';
import { orgWithOwner, tokenFor } from './org-fixtures';
import { startOidcIdp, startSamlIdp, type TestSamlIdp } from './sso-idps';
import { accountsWithEmail, domainOf, postAcs, saveSso } from './sso-support';

let t: TestApp;
let idp: TestSamlIdp;
let domain: string;
let org: typeof organizations.$inferSelect;
let orgToken: string;

const samlBody = (over: Record<string, unknown> = {}) => ({
  protocol: 'saml',
  domains: [domain],
  saml_sso_url: idp.ssoUrl,
  saml_idp_entity_id: idp.entityId,
  saml_idp_cert: idp.cert,
  subadmin_group: 'trainlab-admins',
  ...over,
});

/** Starts a sign-in for `email` and answers the AuthnRequest's id and our ACS / entity id. */
async function begin(email: string, is_previous = true) {
  const res = await t.post('login', { email, is_sso: true, is_previous });
  expect(res.status).toBe(200);
  expect(res.body.sso_redirect.startsWith(`${idp.ssoUrl}?`)).toBe(true);
  return idp.readRequest(res.body.sso_redirect);
}

beforeAll(async () => {
  // the test identity providers listen on 127.0.0.1, which the outbound guard refuses unless allowed
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' });
  idp = await startSamlIdp();
  domain = domainOf('acme');
  ({ organization: org, token: orgToken } = await orgWithOwner(t, { org_domain: domain }));
  const res = await saveSso(t, samlBody(), orgToken);
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await idp.close();
  await t.close();
});

describe('SSO settings', () => {
  it('shows our service-provider values and the stored provider, and points sp_link at our metadata', async () => {
    const res = await t.post('sso-settings', {}, orgToken);
    expect(res.status).toBe(200);
    const sp = res.body.service_provider;
    expect(sp.entity_id).toBe(`http://app.test/sso/saml/${org.slug}/metadata`);
    expect(sp.acs_url).toBe(`http://app.test/sso/saml/${org.slug}/acs`);
    expect(sp.redirect_uri).toBe(`http://app.test/sso/oidc/${org.slug}/callback`);
    expect(sp.signing_certificate).toContain('BEGIN CERTIFICATE');
    expect(res.body).toMatchObject({ configured: true, protocol: 'saml', enabled: true, domains: [domain] });
    const [row] = await t.deps.db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(row!.sp_link).toBe(sp.metadata_url);
  });

  it('offers the organization domain and ip_link before anything is configured', async () => {
    const other = await orgWithOwner(t, { org_domain: 'Fresh.Example.test', ip_link: 'https://idp.fresh.test/sso' });
    const res = await t.post('sso-settings', {}, other.token);
    expect(res.body).toMatchObject({
      configured: false,
      domains: ['fresh.example.test'],
      saml_sso_url: 'https://idp.fresh.test/sso',
    });
  });

  it('serves our SP metadata with the entity id, ACS and signing certificate', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/sso/saml/${org.slug}/metadata` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('samlmetadata+xml');
    expect(res.body).toContain(`entityID="http://app.test/sso/saml/${org.slug}/metadata"`);
    expect(res.body).toContain(`Location="http://app.test/sso/saml/${org.slug}/acs"`);
    expect(res.body).toContain('X509Certificate');
    const missing = await t.app.inject({ method: 'GET', url: '/sso/saml/no-such-org/metadata' });
    expect(missing.statusCode).toBe(404);
  });

  it('answers a metadata failure that is not "no single sign-on here" as a 500, not a 404 that hides it', async () => {
    // our signing key no longer decrypts (as after a wrong FIELD_ENCRYPTION_KEYS): the server's fault, logged
    const [row] = await t.deps.db.select().from(ssoSettings).where(eq(ssoSettings.organization_id, org.id));
    onTestFinished(async () => {
      await t.deps.db
        .update(ssoSettings)
        .set({ sp_private_key_enc: row!.sp_private_key_enc })
        .where(eq(ssoSettings.organization_id, org.id));
    });
    await t.deps.db
      .update(ssoSettings)
      .set({ sp_private_key_enc: 'not-a-ciphertext' })
      .where(eq(ssoSettings.organization_id, org.id));
    const res = await t.app.inject({ method: 'GET', url: `/sso/saml/${org.slug}/metadata` });
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe("The single sign-on metadata could not be made. The server's log says why.");
    // an answer arriving meanwhile: the server's failure, not a verdict on the answer
    const email = `key@${domain}`;
    const start = await t.post('login', { email, is_sso: true, is_previous: true });
    expect(start.status).toBe(422);
    expect(start.body).toEqual({ email: [SSO_MSG.errors.misconfigured] });
    const landed = await postAcs(
      t,
      org.slug,
      idp.response({ inResponseTo: '_none', acs: `http://app.test/sso/saml/${org.slug}/acs`, audience: 'x', email }),
    );
    expect(landed.error).toBe('misconfigured');
  });

  it('reads the IdP metadata from a URL or from pasted XML', async () => {
    const a = await orgWithOwner(t);
    const byUrl = await saveSso(
      t,
      { protocol: 'saml', domains: [domainOf('meta')], saml_metadata_url: idp.metadataUrl },
      a.token,
    );
    expect(byUrl.status).toBe(200);
    expect(byUrl.body).toMatchObject({
      saml_sso_url: idp.ssoUrl,
      saml_idp_entity_id: idp.entityId,
      message: SSO_MSG.saved,
    });
    expect(byUrl.body.saml_idp_cert).toContain('BEGIN CERTIFICATE');
    const byXml = await saveSso(
      t,
      { protocol: 'saml', domains: [domainOf('meta')], saml_metadata_xml: idp.metadataXml },
      a.token,
    );
    expect(byXml.status).toBe(200);
    expect(byXml.body.saml_sso_url).toBe(idp.ssoUrl);
    const bad = await saveSso(
      t,
      { protocol: 'saml', domains: [domainOf('meta')], saml_metadata_xml: '<nothing/>' },
      a.token,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.saml_metadata_xml).toEqual([SSO_MSG.metadataUnreadable]);
    // metadata whose sign-in or logout address no fetch could read is unreadable too
    for (const location of [idp.ssoUrl, idp.sloUrl]) {
      const broken = idp.metadataXml.replace(`Location="${location}"`, 'Location="http://127.0.0.1%2509:4199/m"');
      expect(broken).not.toBe(idp.metadataXml);
      const res = await saveSso(
        t,
        { protocol: 'saml', domains: [domainOf('meta')], saml_metadata_xml: broken },
        a.token,
      );
      expect(res.status, location).toBe(422);
      expect(res.body).toEqual({ saml_metadata_xml: [SSO_MSG.metadataUnreadable] });
    }
  });

  it('lets the admin edit any organization, and keeps the OIDC secret out of every answer', async () => {
    const admin = await tokenFor(t, 'admin');
    const other = await t.createOrganization();
    // the issuer is discovered when the settings are saved
    const op = await startOidcIdp([]);
    onTestFinished(() => op.close());
    const body = {
      organization_id: other.id,
      protocol: 'oidc',
      domains: [domainOf('oidc')],
      oidc_issuer: `${op.issuer}/`,
      oidc_client_id: 'trainlab',
      oidc_client_secret: 'very-secret-value',
    };
    const saved = await saveSso(t, body, admin);
    expect(saved.status).toBe(200);
    expect(saved.body.has_client_secret).toBe(true);
    expect(JSON.stringify(saved.body)).not.toContain('very-secret-value');
    const [row] = await t.deps.db.select().from(ssoSettings).where(eq(ssoSettings.organization_id, other.id));
    expect(row!.oidc_client_secret_enc).not.toContain('very-secret-value');
    expect(t.deps.cipher.decrypt(row?.oidc_client_secret_enc ?? '')).toBe('very-secret-value');
    // saving again without a secret keeps the stored one
    const again = await saveSso(t, { ...body, oidc_client_secret: '' }, admin);
    expect(again.status).toBe(200);
    const read = await t.post('sso-settings', { organization_id: other.id }, admin);
    expect(read.body).toMatchObject({ protocol: 'oidc', oidc_issuer: op.issuer, has_client_secret: true });
    expect(JSON.stringify(read.body)).not.toContain('very-secret-value');
  });

  it('401 without a session, 403 for every other role', async () => {
    expect((await t.post('sso-settings', {})).status).toBe(401);
    expect((await saveSso(t, samlBody())).status).toBe(401);
    for (const role of rolesExcept('admin', 'organization')) {
      const token = await tokenFor(t, role);
      expect((await t.post('sso-settings', {}, token)).status, role).toBe(403);
      expect((await saveSso(t, samlBody(), token)).status, role).toBe(403);
    }
  });

  it('404 for another organization or a missing one; the admin must name one', async () => {
    const other = await t.createOrganization();
    expect((await t.post('sso-settings', { organization_id: other.id }, orgToken)).status).toBe(404);
    expect((await saveSso(t, samlBody({ organization_id: other.id }), orgToken)).status).toBe(404);
    const admin = await tokenFor(t, 'admin');
    expect((await t.post('sso-settings', { organization_id: 999999 }, admin)).status).toBe(404);
    const none = await t.post('sso-settings', {}, admin);
    expect(none.status).toBe(422);
    expect(none.body.organization_id).toEqual(['The organization id field is required.']);
  });

  it('422 per field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ protocol: 'ldap' }, 'protocol', 'The selected protocol is invalid.'],
      [{ domains: [] }, 'domains', 'The domains field is required.'],
      [{ domains: ['not a domain'] }, 'domains', 'The domains must be valid domain names.'],
      [{ saml_sso_url: null }, 'saml_sso_url', 'The SSO URL field is required when no metadata is given.'],
      [{ saml_sso_url: 'ftp://x' }, 'saml_sso_url', 'The link must be a valid URL.'],
      [{ saml_idp_cert: null }, 'saml_idp_cert', 'The certificate field is required when no metadata is given.'],
      [
        { protocol: 'oidc', oidc_client_id: 'x', oidc_client_secret: 'y' },
        'oidc_issuer',
        'The issuer field is required.',
      ],
      [{ protocol: 'oidc', oidc_issuer: 'http://127.0.0.1:9' }, 'oidc_client_id', 'The client id field is required.'],
    ];
    for (const [over, field, message] of cases) {
      const res = await saveSso(t, samlBody(over), orgToken);
      expect(res.status, field).toBe(422);
      expect(res.body[field], field).toEqual([message]);
    }
    const fresh = await orgWithOwner(t);
    const noSecret = await saveSso(
      t,
      { protocol: 'oidc', domains: [domainOf('x')], oidc_issuer: 'http://127.0.0.1:9', oidc_client_id: 'c' },
      fresh.token,
    );
    expect(noSecret.status).toBe(422);
    expect(noSecret.body.oidc_client_secret).toEqual(['The client secret field is required.']);
  });

  it(`takes ${SSO_DOMAINS_MAX} domains and refuses one more, and a domain of another organization`, async () => {
    const fresh = await orgWithOwner(t);
    const many = (n: number) => Array.from({ length: n }, (_, i) => `d${i}-${fresh.organization.id}.example.test`);
    const ok = await saveSso(t, samlBody({ domains: many(SSO_DOMAINS_MAX) }), fresh.token);
    expect(ok.status).toBe(200);
    expect(ok.body.domains).toHaveLength(SSO_DOMAINS_MAX);
    const over = await saveSso(t, samlBody({ domains: many(SSO_DOMAINS_MAX + 1) }), fresh.token);
    expect(over.status).toBe(422);
    expect(over.body.domains).toEqual([`The domains may not have more than ${SSO_DOMAINS_MAX} items.`]);
    const taken = await saveSso(t, samlBody({ domains: [domain] }), fresh.token);
    expect(taken.status).toBe(422);
    expect(taken.body.domains).toEqual([SSO_MSG.domainTaken]);
  });
});

describe('SAML sign-in', () => {
  it('signs a new person in just in time as an organization user, and finds the same account the second time', async () => {
    const email = `asha@${domain}`;
    const req = await begin(email);
    expect(req.acs).toBe(`http://app.test/sso/saml/${org.slug}/acs`);
    const landed = await postAcs(
      t,
      org.slug,
      idp.response({ inResponseTo: req.id, acs: req.acs, audience: req.issuer, email }),
    );
    expect(landed.error).toBeNull();
    const session = await t.post('sso-exchange', { code: landed.code });
    expect(session.status).toBe(200);
    expect(session.body.success).toMatchObject({
      roles: ['organization_user'],
      email,
      first_name: 'Asha',
      last_name: 'Rao',
    });
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ organization_id: org.id, user_type: 5, is_approved: 1, password_hash: null });
    // the session works
    expect((await t.post('current-token', { email }, session.body.success.token)).body).toBe(
      session.body.success.token,
    );

    const again = await begin(email);
    const second = await postAcs(
      t,
      org.slug,
      idp.response({ inResponseTo: again.id, acs: again.acs, audience: again.issuer, email }),
    );
    const session2 = await t.post('sso-exchange', { code: second.code });
    expect(session2.status).toBe(200);
    expect(session2.body.success._id).toBe(user!.id);
    expect(await accountsWithEmail(t, email)).toBe(1);
    // one live session per account: the first one ended (is_previous defaults to true)
    expect((await t.post('current-token', { email }, session.body.success.token)).body).toBe('');
  });

  it('single logout: our logout sends the browser to the IdP, and the IdP can end our session', async () => {
    const o = await orgWithOwner(t);
    const d = domainOf('slo');
    const saved = await saveSso(t, samlBody({ domains: [d], saml_slo_url: idp.sloUrl }), o.token);
    expect(saved.status).toBe(200);
    const slug = o.organization.slug;
    const email = `slo@${d}`;
    const signIn = async () => {
      const req = await begin(email);
      const landed = await postAcs(
        t,
        slug,
        idp.response({ inResponseTo: req.id, acs: req.acs, audience: req.issuer, email }),
      );
      const session = await t.post('sso-exchange', { code: landed.code });
      expect(session.status).toBe(200);
      return session.body.success.token as string;
    };
    // SP-initiated: our logout ends our session and answers the IdP's logout URL
    const token = await signIn();
    const out = await t.post('logout', {}, token);
    expect(out.status).toBe(200);
    expect(out.body.message).toBe(MSG.loggedOut);
    const sloUrl = new URL(out.body.sso_logout);
    expect(sloUrl.origin + sloUrl.pathname).toBe(idp.sloUrl);
    expect(sloUrl.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(sloUrl.searchParams.get('Signature')).toBeTruthy();
    expect((await t.post('current-token', { email }, token)).body).toBe('');
    // the IdP's answer comes back to our SLO URL and lands on /login
    const logoutXml = (await import('node:zlib'))
      .inflateRawSync(Buffer.from(sloUrl.searchParams.get('SAMLRequest')!, 'base64'))
      .toString('utf8');
    const logoutId = /\sID="([^"]+)"/.exec(logoutXml)?.[1] ?? '';
    const sloAt = `http://app.test/sso/saml/${slug}/slo`;
    const back = await t.app.inject({
      method: 'POST',
      url: `/sso/saml/${slug}/slo`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: idp.logoutResponse(logoutId, sloAt) }).toString(),
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('http://app.test/login');

    // IdP-initiated: a signed LogoutRequest ends the person's session here
    const token2 = await signIn();
    const idpLogout = await t.app.inject({
      method: 'POST',
      url: `/sso/saml/${slug}/slo`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLRequest: idp.logoutRequest(email, sloAt) }).toString(),
    });
    expect(idpLogout.statusCode).toBe(303);
    expect(String(idpLogout.headers.location).startsWith(`${idp.sloUrl}?SAMLResponse=`)).toBe(true);
    expect((await t.post('current-token', { email }, token2)).body).toBe('');
    // an unsigned LogoutRequest ends nothing
    const token3 = await signIn();
    const forged = Buffer.from(
      Buffer.from(idp.logoutRequest(email, sloAt), 'base64')
        .toString('utf8')
        .replace(/<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/, ''),
    ).toString('base64');
    expect(Buffer.from(forged, 'base64').toString('utf8')).not.toContain('SignatureValue');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/sso/saml/${slug}/slo`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLRequest: forged }).toString(),
    });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe('http://app.test/sso/complete?error=invalid_answer');
    expect((await t.post('current-token', { email }, token3)).body).toBe(token3);
  });

  it('single logout on the HTTP-Redirect binding: only a signed, fresh, addressed LogoutRequest of the IdP, once', async () => {
    const o = await orgWithOwner(t);
    const d = domainOf('slo-redirect');
    expect((await saveSso(t, samlBody({ domains: [d], saml_slo_url: idp.sloUrl }), o.token)).status).toBe(200);
    const slug = o.organization.slug;
    const email = `slo-r@${d}`;
    const sloAt = `http://app.test/sso/saml/${slug}/slo`;
    const signIn = async () => {
      const req = await begin(email);
      const landed = await postAcs(
        t,
        slug,
        idp.response({ inResponseTo: req.id, acs: req.acs, audience: req.issuer, email }),
      );
      return (await t.post('sso-exchange', { code: landed.code })).body.success.token as string;
    };
    const get = (query: string) => t.app.inject({ method: 'GET', url: `/sso/saml/${slug}/slo?${query}` });
    const alive = async (token: string) => (await t.post('current-token', { email }, token)).body === token;
    const token = await signIn();
    // anyone who knows the entity id and an e-mail: an unsigned link ends nothing
    for (const forged of [
      idp.logoutRequestQuery(email, sloAt, { signed: false }),
      // signed, but for another address, by another issuer, or long ago
      idp.logoutRequestQuery(email, 'https://elsewhere.test/slo'),
      idp.logoutRequestQuery(email, sloAt, { issuer: 'https://evil-idp.test' }),
      idp.logoutRequestQuery(email, sloAt, { issueInstant: new Date(Date.now() - 3600_000) }),
      // a signature taken from another message
      `${idp.logoutRequestQuery(`other@${d}`, sloAt).split('&')[0]}&${idp.logoutRequestQuery(email, sloAt).split('&').slice(1).join('&')}`,
    ]) {
      const res = await get(forged);
      expect(res.statusCode).toBe(303);
      expect(String(res.headers.location)).toMatch(
        /^http:\/\/app\.test\/sso\/complete\?error=(invalid_answer|expired)$/,
      );
      expect(await alive(token)).toBe(true);
    }
    // the IdP's signed request ends the session and is answered with our LogoutResponse
    const signed = idp.logoutRequestQuery(email, sloAt, { id: '_logout-once' });
    const ok = await get(signed);
    expect(ok.statusCode).toBe(303);
    expect(String(ok.headers.location).startsWith(`${idp.sloUrl}?SAMLResponse=`)).toBe(true);
    expect(await alive(token)).toBe(false);
    // the same message again is a replay
    const token2 = await signIn();
    const replay = await get(signed);
    expect(replay.headers.location).toBe('http://app.test/sso/complete?error=expired');
    expect(await alive(token2)).toBe(true);
  });

  it('a LogoutResponse must be signed, addressed to us and answer our own LogoutRequest, on both bindings', async () => {
    const o = await orgWithOwner(t);
    const d = domainOf('slo-answer');
    await saveSso(t, samlBody({ domains: [d], saml_slo_url: idp.sloUrl }), o.token);
    const slug = o.organization.slug;
    const email = `slo-a@${d}`;
    const sloAt = `http://app.test/sso/saml/${slug}/slo`;
    const ourLogoutId = async () => {
      const req = await begin(email);
      const landed = await postAcs(
        t,
        slug,
        idp.response({ inResponseTo: req.id, acs: req.acs, audience: req.issuer, email }),
      );
      const token = (await t.post('sso-exchange', { code: landed.code })).body.success.token as string;
      const out = await t.post('logout', {}, token);
      const xml = (await import('node:zlib'))
        .inflateRawSync(Buffer.from(new URL(out.body.sso_logout).searchParams.get('SAMLRequest')!, 'base64'))
        .toString('utf8');
      return /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
    };
    const post = (payload: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/sso/saml/${slug}/slo`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(payload).toString(),
      });
    // HTTP-POST, unsigned: refused, and the request it names stays unanswered
    const id = await ourLogoutId();
    const unsigned = Buffer.from(
      Buffer.from(idp.logoutResponse(id, sloAt), 'base64')
        .toString('utf8')
        .replace(/<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/, ''),
    ).toString('base64');
    expect((await post({ SAMLResponse: unsigned })).headers.location).toBe(
      'http://app.test/sso/complete?error=invalid_answer',
    );
    // HTTP-Redirect: unsigned and wrongly addressed refused; the signed one lands on /login, once
    const get = (query: string) => t.app.inject({ method: 'GET', url: `/sso/saml/${slug}/slo?${query}` });
    expect((await get(idp.logoutResponseQuery(id, sloAt, { signed: false }))).headers.location).toBe(
      'http://app.test/sso/complete?error=invalid_answer',
    );
    expect((await get(idp.logoutResponseQuery(id, 'https://elsewhere.test/slo'))).headers.location).toBe(
      'http://app.test/sso/complete?error=invalid_answer',
    );
    expect((await get(idp.logoutResponseQuery(id, sloAt))).headers.location).toBe('http://app.test/login');
    expect((await get(idp.logoutResponseQuery(id, sloAt))).headers.location).toBe(
      'http://app.test/sso/complete?error=expired',
    );
    // a signed answer to a request we never sent
    expect((await post({ SAMLResponse: idp.logoutResponse('_never-sent', sloAt) })).headers.location).toBe(
      'http://app.test/sso/complete?error=expired',
    );
  });

  it('an answer in flight signs nobody in once single sign-on is switched off', async () => {
    const o = await orgWithOwner(t);
    const d = domainOf('switched');
    await saveSso(t, samlBody({ domains: [d] }), o.token);
    const email = `late@${d}`;
    const req = await begin(email);
    await saveSso(t, samlBody({ domains: [d], enabled: false }), o.token);
    const landed = await postAcs(
      t,
      o.organization.slug,
      idp.response({ inResponseTo: req.id, acs: req.acs, audience: req.issuer, email }),
    );
    expect(landed).toEqual({ code: null, error: 'unknown_domain' });
    expect(await accountsWithEmail(t, email)).toBe(0);
  });

  it('a password session has no single logout', async () => {
    const { token } = await t.loginAs({ role: 'user' });
    const out = await t.post('logout', {}, token);
    expect(out.body).toEqual({ message: MSG.loggedOut });
  });

  it('a one-time code works once', async () => {
    const email = `once@${domain}`;
    const req = await begin(email);
    const { code } = await postAcs(
      t,
      org.slug,
      idp.response({ inResponseTo: req.id, acs: req.acs, audience: req.issuer, email }),
    );
    expect((await t.post('sso-exchange', { code })).status).toBe(200);
    const reuse = await t.post('sso-exchange', { code });
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toEqual([SSO_MSG.codeInvalid]);
    expect((await t.post('sso-exchange', {})).status).toBe(422);
  });

  it('keeps the one-session rule: without is_previous a live session refuses the new one', async () => {
    const email = `twice@${domain}`;
    const first = await begin(email);
    const a = await postAcs(
      t,
      org.slug,
      idp.response({ inResponseTo: first.id, acs: first.acs, audience: first.issuer, email }),
    );
    expect((await t.post('sso-exchange', { code: a.code })).status).toBe(200);
    const second = await begin(email, false);
    const b = await postAcs(
      t,
      org.slug,
      idp.response({ inResponseTo: second.id, acs: second.acs, audience: second.issuer, email }),
    );
    const refused = await t.post('sso-exchange', { code: b.code });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.loggedInElsewhere);
    expect(refused.body.code).toBe('logged_in_elsewhere');
  });

  it('maps the configured group to org_subadmin', async () => {
    const email = `lead@${domain}`;
    const req = await begin(email);
    const landed = await postAcs(
      t,
      org.slug,
      idp.response({
        inResponseTo: req.id,
        acs: req.acs,
        audience: req.issuer,
        email,
        groups: ['staff', 'trainlab-admins'],
      }),
    );
    const session = await t.post('sso-exchange', { code: landed.code });
    expect(session.body.success.roles).toEqual(['org_subadmin']);
  });

  const refusals: [string, (r: { id: string; acs: string; issuer: string }, email: string) => string, string][] = [
    [
      'an unsigned assertion',
      (r, email) => idp.response({ inResponseTo: r.id, acs: r.acs, audience: r.issuer, email, signing: 'none' }),
      'invalid_answer',
    ],
    [
      'a wrongly signed assertion',
      (r, email) => idp.response({ inResponseTo: r.id, acs: r.acs, audience: r.issuer, email, signing: 'other-key' }),
      'invalid_answer',
    ],
    [
      'a changed assertion',
      (r, email) => idp.response({ inResponseTo: r.id, acs: r.acs, audience: r.issuer, email, signing: 'tampered' }),
      'invalid_answer',
    ],
    [
      'a wrong audience',
      (r, email) => idp.response({ inResponseTo: r.id, acs: r.acs, audience: 'https://someone-else.test', email }),
      'invalid_answer',
    ],
    [
      'an expired assertion',
      (r, email) =>
        idp.response({
          inResponseTo: r.id,
          acs: r.acs,
          audience: r.issuer,
          email,
          notBefore: new Date(Date.now() - 3_600_000),
          notOnOrAfter: new Date(Date.now() - 120_000),
        }),
      'expired',
    ],
    [
      'a not yet valid assertion',
      (r, email) =>
        idp.response({
          inResponseTo: r.id,
          acs: r.acs,
          audience: r.issuer,
          email,
          notBefore: new Date(Date.now() + 600_000),
        }),
      'expired',
    ],
    [
      'an unsolicited response',
      (r, email) => idp.response({ inResponseTo: null, acs: r.acs, audience: r.issuer, email }),
      'invalid_answer',
    ],
    [
      'an answer to a request never sent',
      (r, email) => idp.response({ inResponseTo: '_never-sent', acs: r.acs, audience: r.issuer, email }),
      'expired',
    ],
    [
      'a wrong recipient',
      (r, email) =>
        idp.response({ inResponseTo: r.id, acs: r.acs, audience: r.issuer, email, recipient: 'https://evil.test/acs' }),
      'invalid_answer',
    ],
    [
      'a wrong destination',
      (r, email) =>
        idp.response({
          inResponseTo: r.id,
          acs: r.acs,
          audience: r.issuer,
          email,
          destination: 'https://evil.test/acs',
        }),
      'invalid_answer',
    ],
    [
      'a response and assertion of another issuer than the configured IdP entity id',
      (r, email) =>
        idp.response({ inResponseTo: r.id, acs: r.acs, audience: r.issuer, email, issuer: 'https://evil-idp.test' }),
      'invalid_answer',
    ],
    [
      'a person of another domain',
      (r) => idp.response({ inResponseTo: r.id, acs: r.acs, audience: r.issuer, email: 'ceo@elsewhere.test' }),
      'refused',
    ],
  ];
  for (const [what, make, reason] of refusals) {
    it(`refuses ${what} without creating an account`, async () => {
      const email = `refused-${reason}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
      const req = await begin(email);
      const landed = await postAcs(t, org.slug, make(req, email));
      expect(landed).toEqual({ code: null, error: reason });
      expect(await accountsWithEmail(t, email)).toBe(0);
      expect(await accountsWithEmail(t, 'ceo@elsewhere.test')).toBe(0);
    });
  }

  it('refuses a replayed response and a replayed assertion', async () => {
    const email = `replay@${domain}`;
    const req = await begin(email);
    const response = idp.response({
      inResponseTo: req.id,
      acs: req.acs,
      audience: req.issuer,
      email,
      assertionId: '_fixed-assertion',
    });
    const first = await postAcs(t, org.slug, response);
    expect(first.code).not.toBeNull();
    const replay = await postAcs(t, org.slug, response);
    expect(replay).toEqual({ code: null, error: 'expired' });
    // the same assertion id inside an answer to a fresh request
    const fresh = await begin(email);
    const again = await postAcs(
      t,
      org.slug,
      idp.response({
        inResponseTo: fresh.id,
        acs: fresh.acs,
        audience: fresh.issuer,
        email,
        assertionId: '_fixed-assertion',
      }),
    );
    expect(again).toEqual({ code: null, error: 'expired' });
  });

  it('answers a clear page for an unknown organization and a missing response, never a 500', async () => {
    expect(await postAcs(t, 'no-such-org', 'PHhtbC8+')).toEqual({ code: null, error: 'unknown_domain' });
    const res = await t.app.inject({ method: 'POST', url: `/sso/saml/${org.slug}/acs`, payload: {} });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('http://app.test/sso/complete?error=invalid_answer');
    expect(await postAcs(t, org.slug, 'bm90IHhtbA==')).toEqual({ code: null, error: 'invalid_answer' });
  });

  it('answers an unknown domain and a deactivated or unapproved organization like a password login', async () => {
    const unknown = await t.post('login', { email: 'someone@nowhere.test', is_sso: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.email).toEqual([MSG.ssoNotConfigured]);
    for (const change of [{ status: 0 }, { is_approved: 0 }]) {
      const o = await orgWithOwner(t);
      const d = domainOf('off');
      expect((await saveSso(t, samlBody({ domains: [d] }), o.token)).status).toBe(200);
      await t.deps.db.update(organizations).set(change).where(eq(organizations.id, o.organization.id));
      const res = await t.post('login', { email: `x@${d}`, is_sso: true });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MSG.accountInactive);
      expect(res.body.code).toBe('account_inactive');
    }
  });

  it('refuses a switched-off provider and, when asked, password logins of the domain', async () => {
    const o = await orgWithOwner(t);
    const d = domainOf('strict');
    await saveSso(t, samlBody({ domains: [d], password_login_disabled: true }), o.token);
    const person = await t.createUser({
      role: 'organization_user',
      email: `p@${d}`,
      organization_id: o.organization.id,
    });
    const refused = await t.post('login', { email: person.email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(SSO_MSG.passwordLoginDisabled);
    await saveSso(t, samlBody({ domains: [d], enabled: false }), o.token);
    expect((await t.post('login', { email: person.email, password: PASSWORD })).status).toBe(200);
    const off = await t.post('login', { email: person.email, is_sso: true });
    expect(off.status).toBe(422);
  });

  it('a provider that cannot be reached answers a clear error at login', async () => {
    const o = await orgWithOwner(t);
    const d = domainOf('down');
    // saved while the provider answered; it is gone by the time someone signs in
    const op = await startOidcIdp([]);
    const saved = await saveSso(
      t,
      { protocol: 'oidc', domains: [d], oidc_issuer: op.issuer, oidc_client_id: 'c', oidc_client_secret: 's' },
      o.token,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await op.close();
    const res = await t.post('login', { email: `x@${d}`, is_sso: true });
    expect(res.status).toBe(422);
    expect(res.body.email).toEqual([SSO_MSG.errors.misconfigured]);
  });
});
