import { MSG, PUBLIC_MAIL_DOMAINS, SSO_MSG, type SsoDomainState } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDns, startFakeDns } from './dns-fake';
import { createTestApp, type TestApp } from './helpers';
import { orgWithOwner, tokenFor } from './org-fixtures';
import { startSamlIdp, type TestSamlIdp } from './sso-idps';
import { domainOf } from './sso-support';

/**
 * An organization claims e-mail domains for single sign-on; a claim routes no one until it is
 * proved by a DNS TXT record (looked up through DNS_RESOLVER, here a fake DNS server) or vouched
 * for by the admin. Public mail domains can never be claimed.
 */

let t: TestApp;
let dns: FakeDns;
let idp: TestSamlIdp;
let admin: string;

beforeAll(async () => {
  dns = await startFakeDns();
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', DNS_RESOLVER: dns.server });
  idp = await startSamlIdp();
  admin = await tokenFor(t, 'admin');
});
afterAll(async () => {
  await idp.close();
  await dns.close();
  await t.close();
});

const samlBody = (domains: string[], over: Record<string, unknown> = {}) => ({
  protocol: 'saml',
  domains,
  saml_sso_url: idp.ssoUrl,
  saml_idp_entity_id: idp.entityId,
  saml_idp_cert: idp.cert,
  ...over,
});

/** An organization with its settings saved for `domains`; answers its token, id and the saved answer. */
async function claim(domains: string[]) {
  const o = await orgWithOwner(t);
  const saved = await t.post('save-sso-settings', samlBody(domains), o.token);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { token: o.token, id: o.organization.id, saved: saved.body };
}

const stateOf = (settings: { domain_states: SsoDomainState[] }, domain: string) =>
  settings.domain_states.find((s) => s.domain === domain)!;

/** Where /login with is_sso sends a person of `domain`: the provider's address, or the refusal. */
async function ssoLogin(domain: string) {
  const res = await t.post('login', { email: `someone@${domain}`, is_sso: true });
  return res.status === 200 ? 'provider' : res.body.email?.[0];
}

describe('claiming a domain', () => {
  it('refuses public mail domains, whatever their case', async () => {
    const o = await orgWithOwner(t);
    for (const d of ['gmail.com', 'Outlook.com', 'yahoo.com']) {
      const res = await t.post('save-sso-settings', samlBody([domainOf('fine'), d]), o.token);
      expect(res.status, d).toBe(422);
      expect(res.body, d).toEqual({ domains: [SSO_MSG.publicMailDomain] });
    }
    expect(PUBLIC_MAIL_DOMAINS).toContain('gmail.com');
  });

  it('a saved domain is not verified and routes no one; the settings show the TXT record to publish', async () => {
    const d = domainOf('unproved');
    const { saved } = await claim([d]);
    const state = stateOf(saved, d);
    expect(state).toMatchObject({ verified: false, verified_by: null, record_name: `_trainlab.${d}` });
    expect(state.record_value).toMatch(/^trainlab-verification=[\w-]{20,}$/);
    expect(await ssoLogin(d)).toBe(MSG.ssoNotConfigured);
  });
});

describe('proof by DNS', () => {
  it('Check now: refused while the record is missing or wrong; verified once it is published (at _trainlab)', async () => {
    const d = domainOf('txt');
    const { token, saved } = await claim([d]);
    const { record_name, record_value } = stateOf(saved, d);

    const missing = await t.post('check-sso-domain', { domain: d }, token);
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ domain: [SSO_MSG.domainRecordMissing] });
    expect(dns.asked).toEqual(expect.arrayContaining([record_name, d]));

    dns.txt.set(record_name, [['trainlab-verification=someone-elses-token'], ['v=spf1 -all']]);
    const wrong = await t.post('check-sso-domain', { domain: d }, token);
    expect(wrong.body).toEqual({ domain: [SSO_MSG.domainRecordMissing] });
    expect(await ssoLogin(d)).toBe(MSG.ssoNotConfigured);

    // published in two character-strings, as long records are
    dns.txt.set(record_name, [['v=spf1 -all'], [record_value.slice(0, 30), record_value.slice(30)]]);
    const ok = await t.post('check-sso-domain', { domain: d }, token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message).toBe(SSO_MSG.domainVerified);
    expect(stateOf(ok.body, d)).toMatchObject({ verified: true, verified_by: 'dns' });
    expect(await ssoLogin(d)).toBe('provider');

    // saving again keeps the proof and the record
    const again = await t.post('save-sso-settings', samlBody([d, domainOf('more')]), token);
    expect(stateOf(again.body, d)).toMatchObject({ verified: true, record_value });
  });

  it('takes the record at the domain itself too', async () => {
    const d = domainOf('apex');
    const { token, saved } = await claim([d]);
    dns.txt.set(d, [[stateOf(saved, d).record_value]]);
    const ok = await t.post('check-sso-domain', { domain: d }, token);
    expect(stateOf(ok.body, d).verified).toBe(true);
  });

  it('says when DNS does not answer, and when the domain is not claimed', async () => {
    const d = domainOf('servfail');
    const { token } = await claim([d]);
    dns.failing.add(`_trainlab.${d}`);
    const res = await t.post('check-sso-domain', { domain: d }, token);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ domain: [SSO_MSG.domainDnsFailed] });
    const other = await t.post('check-sso-domain', { domain: domainOf('not-mine') }, token);
    expect(other.body).toEqual({ domain: [SSO_MSG.domainNotClaimed] });
  });
});

describe('one owner per domain', () => {
  it('an unproved claim keeps nobody out; once one organization proves a domain, no other can', async () => {
    const d = domainOf('contested');
    const squatter = await claim([d]);
    // the real owner may still claim it, prove it, and sign people in
    const owner = await claim([d]);
    dns.txt.set(`_trainlab.${d}`, [[stateOf(owner.saved, d).record_value]]);
    expect((await t.post('check-sso-domain', { domain: d }, owner.token)).status).toBe(200);
    expect(await ssoLogin(d)).toBe('provider');
    // the other claim can no longer be proved, by DNS or by the admin, nor saved anew
    dns.txt.set(`_trainlab.${d}`, [[stateOf(squatter.saved, d).record_value]]);
    const late = await t.post('check-sso-domain', { domain: d }, squatter.token);
    expect(late.body).toEqual({ domain: [SSO_MSG.domainTaken] });
    const byAdmin = await t.post(
      'verify-sso-domain',
      { organization_id: squatter.id, domain: d, verified: true },
      admin,
    );
    expect(byAdmin.body).toEqual({ domain: [SSO_MSG.domainTaken] });
    const fresh = await orgWithOwner(t);
    const taken = await t.post('save-sso-settings', samlBody([d]), fresh.token);
    expect(taken.body).toEqual({ domains: [SSO_MSG.domainTaken] });
  });
});

describe('proof by the admin', () => {
  it('the admin marks a domain verified or not by hand; an organization may not', async () => {
    const d = domainOf('vouched');
    const { token, id } = await claim([d]);
    const self = await t.post('verify-sso-domain', { organization_id: id, domain: d, verified: true }, token);
    expect(self.status).toBe(403);
    const marked = await t.post('verify-sso-domain', { organization_id: id, domain: d, verified: true }, admin);
    expect(marked.status).toBe(200);
    expect(marked.body.message).toBe(SSO_MSG.domainMarkedVerified);
    expect(stateOf(marked.body, d)).toMatchObject({ verified: true, verified_by: 'admin' });
    expect(await ssoLogin(d)).toBe('provider');
    const unmarked = await t.post('verify-sso-domain', { organization_id: id, domain: d, verified: false }, admin);
    expect(unmarked.body.message).toBe(SSO_MSG.domainMarkedUnverified);
    expect(stateOf(unmarked.body, d)).toMatchObject({ verified: false, verified_by: null });
    expect(await ssoLogin(d)).toBe(MSG.ssoNotConfigured);
  });
});
