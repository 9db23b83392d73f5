import { createSign, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Provider from 'oidc-provider';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/** A tiny SAML identity provider of the tests: signs (or mis-signs) responses itself. */
export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  metadataUrl: string;
  cert: string;
  metadataXml: string;
  /** the AuthnRequest id and ACS of a redirect URL our server answered */
  readRequest(redirectUrl: string): { id: string; acs: string; issuer: string };
  response(opts: SamlResponseOptions): string;
  /** the IdP's signed LogoutRequest (HTTP-POST) ending `nameId`'s sessions at `destination` */
  logoutRequest(nameId: string, destination: string, opts?: LogoutOptions): string;
  /** the same on the HTTP-Redirect binding: the query string (signed unless `signed: false`) */
  logoutRequestQuery(nameId: string, destination: string, opts?: LogoutOptions): string;
  /** the IdP's signed LogoutResponse to our LogoutRequest `inResponseTo` */
  logoutResponse(inResponseTo: string, destination: string): string;
  /** the IdP's LogoutResponse on the HTTP-Redirect binding: the query string */
  logoutResponseQuery(inResponseTo: string, destination: string, opts?: LogoutOptions): string;
  sloUrl: string;
  /** the LogoutRequests of ours its browser pages received (HTTP-Redirect): their query parameters */
  logoutRequestsSeen: URLSearchParams[];
  close(): Promise<void>;
}

export interface LogoutOptions {
  /** false: no signature at all */
  signed?: boolean;
  issuer?: string;
  issueInstant?: Date;
  /** a fixed ID (to send the same message twice) */
  id?: string;
}

export interface SamlResponseOptions {
  inResponseTo?: string | null;
  acs: string;
  audience: string;
  email: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
  /** another issuer than the IdP's entity id, on the response and the assertion */
  issuer?: string;
  /** 'good' (default), 'none' (unsigned), 'other-key' (signed by a stranger), 'tampered' */
  signing?: 'good' | 'none' | 'other-key' | 'tampered';
  notOnOrAfter?: Date;
  notBefore?: Date;
  assertionId?: string;
  recipient?: string;
  destination?: string;
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

async function keyPair(cn: string) {
  const pems = await generate([{ name: 'commonName', value: cn }], { keySize: 2048, algorithm: 'sha256' });
  return { key: pems.private, cert: pems.cert };
}

function sign(xml: string, key: string, cert: string, element = 'Assertion'): string {
  const sig = new SignedXml({ privateKey: key, publicCert: cert });
  sig.addReference({
    xpath: `//*[local-name(.)='${element}']`,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.canonicalizationAlgorithm = 'http://www.w3.org/2001/10/xml-exc-c14n#';
  sig.signatureAlgorithm = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
  sig.computeSignature(xml, {
    location: { reference: `//*[local-name(.)='${element}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

export async function startSamlIdp(): Promise<TestSamlIdp> {
  const own = await keyPair('test-idp');
  const stranger = await keyPair('stranger-idp');
  let metadataXml = '';
  const logoutRequestsSeen: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      res.end(metadataXml);
      return;
    }
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/sso' || url.pathname === '/slo') {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        const page = browserPage(req.method ?? 'GET', url, new URLSearchParams(body));
        res.writeHead(page ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page ?? 'Not a SAML message.');
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  /**
   * The IdP's pages a browser walks (the journeys on the built server): GET /sso takes our
   * HTTP-Redirect AuthnRequest and asks who signs in; POST /sso answers a signed Response posted to
   * our ACS (HTTP-POST); GET /slo takes our signed LogoutRequest and posts back a signed
   * LogoutResponse. Each answer is a form with a Continue button, as real IdPs show without script.
   */
  const browserPage = (method: string, url: URL, form: URLSearchParams): string | null => {
    const post = (action: string, fields: Record<string, string>, title: string) =>
      `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1><form method="post" action="${esc(action)}">${Object.entries(
        fields,
      )
        .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
        .join('')}<button type="submit">Continue</button></form></body></html>`;
    if (url.pathname === '/sso' && method === 'GET') {
      const request = url.searchParams.get('SAMLRequest');
      if (!request) return null;
      const relay = url.searchParams.get('RelayState') ?? '';
      return `<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body><h1>Test identity provider</h1><form method="post" action="/sso"><input type="hidden" name="SAMLRequest" value="${esc(request)}"><input type="hidden" name="RelayState" value="${esc(relay)}"><label>E-mail <input name="email" type="email" required></label><button type="submit">Sign in</button></form></body></html>`;
    }
    if (url.pathname === '/sso' && method === 'POST') {
      const request = form.get('SAMLRequest');
      const email = form.get('email');
      if (!request || !email) return null;
      const read = idp.readRequest(`${base}/sso?${new URLSearchParams({ SAMLRequest: request })}`);
      const samlResponse = idp.response({ inResponseTo: read.id, acs: read.acs, audience: read.issuer, email });
      return post(read.acs, { SAMLResponse: samlResponse, RelayState: form.get('RelayState') ?? '' }, 'Signed in');
    }
    if (url.pathname === '/slo' && method === 'GET') {
      const request = url.searchParams.get('SAMLRequest');
      if (!request) return null;
      logoutRequestsSeen.push(url.searchParams);
      const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
      const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
      // our LogoutRequest's issuer is our entity id, …/sso/saml/{slug}/metadata: its single logout URL is beside it
      const spEntityId = /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';
      const spSlo = spEntityId.replace(/\/metadata$/, '/slo');
      return post(
        spSlo,
        { SAMLResponse: idp.logoutResponse(id, spSlo), RelayState: url.searchParams.get('RelayState') ?? '' },
        'Signed out',
      );
    }
    return null;
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/metadata`;
  const ssoUrl = `${base}/sso`;
  const certBody = own.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  metadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/slo"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  const logoutRequestXml = (nameId: string, destination: string, o: LogoutOptions) => {
    const now = o.issueInstant ?? new Date();
    return `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.id ?? `_l${randomBytes(12).toString('hex')}`}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(destination)}" NotOnOrAfter="${iso(new Date(now.getTime() + 300_000))}"><saml:Issuer>${esc(o.issuer ?? entityId)}</saml:Issuer><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(nameId)}</saml:NameID></samlp:LogoutRequest>`;
  };
  const logoutResponseXml = (inResponseTo: string, destination: string, o: LogoutOptions) => {
    const now = o.issueInstant ?? new Date();
    return `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.id ?? `_lr${randomBytes(12).toString('hex')}`}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(destination)}" InResponseTo="${esc(inResponseTo)}"><saml:Issuer>${esc(o.issuer ?? entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
  };
  /** HTTP-Redirect binding: deflated, base64, and the query signed as the binding says */
  const redirectQuery = (param: string, xml: string, signed: boolean) => {
    const message = `${param}=${encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}`;
    if (!signed) return message;
    const signedPart = `${message}&SigAlg=${encodeURIComponent('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')}`;
    const signature = createSign('RSA-SHA256').update(signedPart).sign(own.key, 'base64');
    return `${signedPart}&Signature=${encodeURIComponent(signature)}`;
  };

  const idp: TestSamlIdp = {
    entityId,
    ssoUrl,
    metadataUrl: `${base}/metadata`,
    cert: own.cert,
    get metadataXml() {
      return metadataXml;
    },
    readRequest(redirectUrl) {
      const raw = new URL(redirectUrl).searchParams.get('SAMLRequest') ?? '';
      const xml = inflateRawSync(Buffer.from(raw, 'base64')).toString('utf8');
      const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
      const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? '';
      const issuer = /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';
      return { id, acs, issuer };
    },
    response(o) {
      const now = new Date();
      const notBefore = o.notBefore ?? new Date(now.getTime() - 30_000);
      const notOnOrAfter = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
      const assertionId = o.assertionId ?? `_a${randomBytes(12).toString('hex')}`;
      const irt = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
      const attrs = [
        ['email', [o.email]],
        ['firstName', [o.firstName ?? 'Asha']],
        ['lastName', [o.lastName ?? 'Rao']],
        ...(o.groups ? [['groups', o.groups] as const] : []),
      ]
        .map(
          ([name, values]) =>
            `<saml:Attribute Name="${name}">${(values as string[]).map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
        )
        .join('');
      const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${esc(o.issuer ?? entityId)}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${esc(o.recipient ?? o.acs)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomBytes(6).toString('hex')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attrs}</saml:AttributeStatement></saml:Assertion>`;
      let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(12).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(o.destination ?? o.acs)}"${irt}><saml:Issuer>${esc(o.issuer ?? entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
      const signing = o.signing ?? 'good';
      if (signing === 'good') xml = sign(xml, own.key, own.cert);
      if (signing === 'other-key') xml = sign(xml, stranger.key, stranger.cert);
      if (signing === 'tampered') xml = sign(xml, own.key, own.cert).replace(`>${esc(o.email)}<`, '>boss@acme.test<');
      return Buffer.from(xml, 'utf8').toString('base64');
    },
    sloUrl: `${base}/slo`,
    logoutRequest(nameId, destination, opts = {}) {
      const xml = logoutRequestXml(nameId, destination, opts);
      return Buffer.from(opts.signed === false ? xml : sign(xml, own.key, own.cert, 'LogoutRequest'), 'utf8').toString(
        'base64',
      );
    },
    logoutRequestQuery(nameId, destination, opts = {}) {
      return redirectQuery('SAMLRequest', logoutRequestXml(nameId, destination, opts), opts.signed !== false);
    },
    logoutResponse(inResponseTo, destination) {
      const xml = logoutResponseXml(inResponseTo, destination, {});
      return Buffer.from(sign(xml, own.key, own.cert, 'LogoutResponse'), 'utf8').toString('base64');
    },
    logoutResponseQuery(inResponseTo, destination, opts = {}) {
      return redirectQuery('SAMLResponse', logoutResponseXml(inResponseTo, destination, opts), opts.signed !== false);
    },
    logoutRequestsSeen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return idp;
}

/** oidc-provider with its development login page: any login name signs in as that e-mail. */
export interface TestOidcIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * The e-mail `unverified.…@…` gets an ID token without email_verified, `false.…@…` one with
 * email_verified: false; everyone else email_verified: true.
 */
export async function startOidcIdp(redirectUris: string[], groups: string[] = []): Promise<TestOidcIdp> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'trainlab';
  const clientSecret = randomBytes(16).toString('hex');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'], groups: ['groups'] },
    pkce: { required: () => true },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({
        sub: id,
        email: id,
        ...(id.startsWith('unverified.') ? {} : { email_verified: !id.startsWith('false.') }),
        given_name: 'Meera',
        family_name: 'Iyer',
        name: 'Meera Iyer',
        groups,
      }),
    }),
    // the ID token carries the claims (no userinfo call needed)
    conformIdTokenClaims: false,
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Walks oidc-provider's development login and consent pages like a browser, answering our callback URL. */
export async function signInAtOidc(authUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  let url = authUrl;
  for (let step = 0; step < 12; step++) {
    if (!url.startsWith(new URL(authUrl).origin)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } });
    remember(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${res.status} ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? 'consent';
    const form = new URLSearchParams({ prompt, login, password: 'any' });
    const post = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    remember(post);
    url = new URL(post.headers.get('location')!, url).href;
  }
  throw new Error('the OIDC sign-in did not come back');
}
