import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSO_MSG } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, OUTBOUND_MSG, outboundPolicy } from '../src/platform/http/outbound-fetch';
import { createTestApp, type TestApp } from './helpers';
import { orgWithOwner } from './org-fixtures';
import { startOidcIdp, startSamlIdp, type TestOidcIdp, type TestSamlIdp } from './sso-idps';
import { domainOf } from './sso-support';

/**
 * Addresses an organization enters in its SSO settings are fetched by our server: they must not
 * reach loopback, the private network or the cloud metadata service, by a literal address, a name
 * that resolves there, or a redirect; nor a scheme other than http(s), nor an endless or huge answer.
 * Only 127.0.0.2 is allowed here (OUTBOUND_ALLOW_PRIVATE), where the test's own servers listen.
 */

let t: TestApp;
let owner: string;
let site: http.Server;
let siteUrl: string;
let idp: TestSamlIdp;
let oidc: TestOidcIdp;

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.2' });
  owner = (await orgWithOwner(t)).token;
  idp = await startSamlIdp();
  oidc = await startOidcIdp([]);
  // a site on an allowed address that redirects elsewhere or answers too much
  site = http.createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (req.url?.startsWith('/redirect')) return res.writeHead(302, { location: to ?? '/' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/metadata') return res.end(idp.metadataXml);
    if (req.url === '/huge') {
      // no content-length: the size is found while reading
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (let i = 0; i < 20; i++) res.write(chunk);
      return res.end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.2', r));
  siteUrl = `http://127.0.0.2:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  site.close();
  await idp.close();
  await oidc.close();
  await t.close();
});

const saml = (url: string) => ({ protocol: 'saml', domains: [domainOf('guard')], saml_metadata_url: url });
const oidcBody = (issuer: string) => ({
  protocol: 'oidc',
  domains: [domainOf('guard')],
  oidc_issuer: issuer,
  oidc_client_id: 'trainlab',
  oidc_client_secret: 'secret',
});

async function refused(body: Record<string, unknown>, field: string, message: string) {
  const res = await t.post('save-sso-settings', body, owner);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toEqual({ [field]: [message] });
}

describe('outbound guard on the SSO settings', () => {
  it('reads metadata from an allowed address, and through a redirect that stays allowed', async () => {
    const direct = await t.post('save-sso-settings', saml(`${siteUrl}/metadata`), owner);
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(direct.body.saml_sso_url).toBe(idp.ssoUrl);
    const redirected = await t.post(
      'save-sso-settings',
      saml(`${siteUrl}/redirect?to=${encodeURIComponent(`${siteUrl}/metadata`)}`),
      owner,
    );
    expect(redirected.status).toBe(200);
  });

  it('refuses loopback, by address and by a name that resolves there (the test IdP itself is live)', async () => {
    await refused(saml(idp.metadataUrl), 'saml_metadata_url', OUTBOUND_MSG.address);
    await refused(saml(idp.metadataUrl.replace('127.0.0.1', 'localhost')), 'saml_metadata_url', OUTBOUND_MSG.address);
    await refused(saml('http://[::1]:9/metadata'), 'saml_metadata_url', OUTBOUND_MSG.address);
  });

  it('refuses private and link-local addresses, the cloud metadata service included', async () => {
    for (const url of [
      'http://10.1.2.3/metadata',
      'http://192.168.1.1/metadata',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/metadata',
      'http://0.0.0.0/metadata',
    ]) {
      await refused(saml(url), 'saml_metadata_url', OUTBOUND_MSG.address);
    }
  });

  it('checks every redirect again: to loopback by address or by name, to another scheme, and endless ones', async () => {
    const via = (to: string) => saml(`${siteUrl}/redirect?to=${encodeURIComponent(to)}`);
    await refused(via(idp.metadataUrl), 'saml_metadata_url', OUTBOUND_MSG.address);
    await refused(via(idp.metadataUrl.replace('127.0.0.1', 'localhost')), 'saml_metadata_url', OUTBOUND_MSG.address);
    await refused(via('http://169.254.169.254/latest/meta-data/'), 'saml_metadata_url', OUTBOUND_MSG.address);
    await refused(via('file:///etc/passwd'), 'saml_metadata_url', OUTBOUND_MSG.scheme);
    await refused(saml(`${siteUrl}/loop`), 'saml_metadata_url', OUTBOUND_MSG.redirects);
  });

  it('refuses a scheme other than http(s) as it is entered', async () => {
    await refused(saml('ftp://idp.example.test/metadata'), 'saml_metadata_url', 'The link must be a valid URL.');
    await refused(saml('file:///etc/passwd'), 'saml_metadata_url', 'The link must be a valid URL.');
  });

  it('refuses an address no fetch could read as it is entered, on every link of the form', async () => {
    // an encoded tab in the host: the URL parser refuses it, so every field holding it is a 422 naming it
    for (const bad of ['http://127.0.0.1%2509:4199/m', 'https://idp .example.test/x', 'http://[::1/x', 'http://']) {
      await refused(saml(bad), 'saml_metadata_url', 'The link must be a valid URL.');
      await refused(oidcBody(bad), 'oidc_issuer', 'The link must be a valid URL.');
    }
  });

  it('refuses an answer over 1 MB', async () => {
    await refused(saml(`${siteUrl}/huge`), 'saml_metadata_url', OUTBOUND_MSG.too_large);
  });

  it('OpenID issuers: discovery at save goes through the guard (openid-client’s fetch)', async () => {
    // the test provider is live on 127.0.0.1, which is not allowed here
    await refused(oidcBody(oidc.issuer), 'oidc_issuer', OUTBOUND_MSG.address);
    await refused(oidcBody('https://169.254.169.254'), 'oidc_issuer', OUTBOUND_MSG.address);
    await refused(oidcBody('https://10.0.0.7/realms/x'), 'oidc_issuer', OUTBOUND_MSG.address);
    await refused(oidcBody('http://idp.example.test'), 'oidc_issuer', SSO_MSG.issuerNotHttps);
  });

  it('OpenID issuers: an allowed one is discovered and saved', async () => {
    const allowed = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' });
    try {
      const o = await orgWithOwner(allowed);
      const res = await allowed.post('save-sso-settings', oidcBody(oidc.issuer), o.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const missing = await allowed.post('save-sso-settings', oidcBody(`${oidc.issuer}/no-such-realm`), o.token);
      expect(missing.status).toBe(422);
      expect(missing.body.oidc_issuer).toEqual([SSO_MSG.discoveryUnreadable]);
    } finally {
      await allowed.close();
    }
  });
});

describe('which addresses are reserved', () => {
  const none = outboundPolicy([]);
  it('refuses loopback, private, link-local, unspecified, multicast and mapped forms of them', () => {
    for (const a of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.10',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(addressAllowed(a, none), a).toBe(false);
    }
  });
  it('allows public addresses, and what the setting names', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1'])
      expect(addressAllowed(a, none), a).toBe(true);
    const some = outboundPolicy(['10.20.0.0/16', '127.0.0.1']);
    expect(addressAllowed('10.20.3.4', some)).toBe(true);
    expect(addressAllowed('10.21.3.4', some)).toBe(false);
    expect(addressAllowed('127.0.0.1', some)).toBe(true);
    expect(addressAllowed('127.0.0.2', some)).toBe(false);
  });
});
