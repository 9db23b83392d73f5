import { createVerify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { type CacheProvider, SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { and, eq, gt } from 'drizzle-orm';
import { ssoRequests } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { serviceProviderUrls } from './endpoints';
import { CLOCK_SKEW_MS, claimAssertion, REQUEST_TTL_MS, SsoError, type SsoIdentity, type SsoTarget } from './sign-in';
import { parseStrict, verifiedXml } from './xml-signature';

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export const splitCerts = (pem: string | null): string[] =>
  pem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

/**
 * AuthnRequest ids live in sso_requests: node-saml saves each id it sends and, on the answer,
 * checks InResponseTo against it and removes it (so an answer is accepted once).
 */
function requestStore(deps: Deps, organizationId: number, isPrevious = true): CacheProvider {
  const key = (k: string) => `saml:${organizationId}:${k}`;
  return {
    async saveAsync(k, value) {
      const createdAt = Date.now();
      await deps.db.insert(ssoRequests).values({
        request_key: key(k),
        organization_id: organizationId,
        protocol: 'saml',
        value,
        is_previous: isPrevious ? 1 : 0,
        expires_at: new Date(createdAt + REQUEST_TTL_MS),
      });
      return { value, createdAt };
    },
    async getAsync(k) {
      const [row] = await deps.db
        .select({ value: ssoRequests.value })
        .from(ssoRequests)
        .where(and(eq(ssoRequests.request_key, key(k)), gt(ssoRequests.expires_at, new Date())));
      return row ? row.value : null;
    },
    async removeAsync(k) {
      if (!k) return null;
      const [row] = await deps.db
        .delete(ssoRequests)
        .where(eq(ssoRequests.request_key, key(k)))
        .returning({ value: ssoRequests.value });
      return row?.value ?? null;
    },
  };
}

export function samlFor(
  deps: Deps,
  target: SsoTarget,
  isPrevious = true,
  inResponseTo: ValidateInResponseTo = ValidateInResponseTo.always,
): SAML {
  const { org, row } = target;
  const urls = serviceProviderUrls(deps, org.slug);
  const certs = splitCerts(row.saml_idp_cert);
  if (!row.saml_sso_url || certs.length === 0) {
    throw new SsoError('misconfigured', `organization ${org.id} has no SAML SSO URL or certificate`);
  }
  return new SAML({
    callbackUrl: urls.acs_url,
    entryPoint: row.saml_sso_url,
    issuer: urls.entity_id,
    audience: urls.entity_id,
    idpCert: certs,
    ...(row.saml_idp_entity_id ? { idpIssuer: row.saml_idp_entity_id } : {}),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: inResponseTo,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestStore(deps, org.id, isPrevious),
    privateKey: deps.cipher.decrypt(row.sp_private_key_enc),
    publicCert: row.sp_cert,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    logoutUrl: row.saml_slo_url ?? row.saml_sso_url,
    logoutCallbackUrl: urls.slo_url,
  });
}

export async function samlStart(deps: Deps, target: SsoTarget, isPrevious: boolean): Promise<string> {
  return samlFor(deps, target, isPrevious).getAuthorizeUrlAsync('', undefined, {});
}

export function samlMetadata(deps: Deps, target: SsoTarget): string {
  const saml = samlFor(deps, {
    ...target,
    row: { ...target.row, saml_sso_url: 'x', saml_idp_cert: target.row.sp_cert },
  });
  return saml.generateServiceProviderMetadata(null, target.row.sp_cert);
}

const parse = (xml: string) =>
  new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} } }).parseFromString(
    xml,
    'text/xml',
  ) as unknown as Document;

/** The text of an element's own <saml:Issuer> child (not a nested one's), or null. */
function issuerOf(el: Element): string | null {
  for (const child of Array.from(el.childNodes)) {
    const c = child as Element;
    if (c.nodeType === 1 && c.namespaceURI === SAML_NS && c.localName === 'Issuer') return (c.textContent ?? '').trim();
  }
  return null;
}

function reasonOf(err: unknown): SsoError {
  if (err instanceof SsoError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof SamlStatusError) return new SsoError('refused', message);
  if (/expired|not yet valid|No valid subject confirmation|InResponseTo is not valid/i.test(message))
    return new SsoError('expired', message);
  return new SsoError('invalid_answer', message);
}

function attr(profile: Record<string, unknown>, ...names: string[]): string[] {
  for (const name of names) {
    const v = profile[name];
    if (typeof v === 'string' && v) return [v];
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  }
  return [];
}

const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

/** The ACS: verifies a SAML Response and answers whom it signs in and the request it answers. */
export async function samlAnswer(
  deps: Deps,
  target: SsoTarget,
  body: { SAMLResponse?: string; RelayState?: string },
): Promise<{ identity: SsoIdentity; isPrevious: boolean }> {
  if (typeof body.SAMLResponse !== 'string' || !body.SAMLResponse) {
    throw new SsoError('invalid_answer', 'no SAMLResponse in the request');
  }
  const urls = serviceProviderUrls(deps, target.org.slug);
  const xml = Buffer.from(body.SAMLResponse, 'base64').toString('utf8');
  const doc = parse(xml);
  const response = doc?.documentElement;
  if (!response || response.namespaceURI !== SAMLP || response.localName !== 'Response') {
    throw new SsoError('invalid_answer', 'not a SAML Response');
  }
  const destination = response.getAttribute('Destination');
  if (destination !== urls.acs_url) throw new SsoError('invalid_answer', `wrong Destination ${destination}`);
  const inResponseTo = response.getAttribute('InResponseTo');
  if (!inResponseTo) throw new SsoError('invalid_answer', 'unsolicited response (no InResponseTo)');
  const [stored] = await deps.db
    .select({ is_previous: ssoRequests.is_previous })
    .from(ssoRequests)
    .where(eq(ssoRequests.request_key, `saml:${target.org.id}:${inResponseTo}`));
  const saml = samlFor(deps, target);
  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await saml.validatePostResponseAsync({
      SAMLResponse: body.SAMLResponse,
      ...(body.RelayState ? { RelayState: body.RelayState } : {}),
    }));
  } catch (e) {
    throw reasonOf(e);
  }
  if (!profile) throw new SsoError('invalid_answer', 'the response signs nobody in');
  // the signed assertion: its recipient and its id (each accepted once)
  const assertionXml = profile.getAssertionXml?.() ?? '';
  const assertion = parse(assertionXml)?.documentElement;
  const assertionId = assertion?.getAttribute('ID');
  if (!assertion || !assertionId) throw new SsoError('invalid_answer', 'no assertion id');
  // node-saml compares the issuer on logout messages only: the response's and the assertion's are ours to check
  const expectedIssuer = target.row.saml_idp_entity_id;
  if (expectedIssuer) {
    const issuers = [issuerOf(response), issuerOf(assertion)];
    if (issuers[1] === null || issuers.some((i) => i !== null && i !== expectedIssuer)) {
      throw new SsoError('invalid_answer', `wrong issuer ${issuers.join(' / ')}`);
    }
  }
  const confirmations = Array.from(assertion.getElementsByTagNameNS(SAML_NS, 'SubjectConfirmationData'));
  if (!confirmations.length || confirmations.some((c) => c.getAttribute('Recipient') !== urls.acs_url)) {
    throw new SsoError('invalid_answer', 'wrong or missing Recipient');
  }
  await claimAssertion(deps, `saml:${target.org.id}:${assertionId}`, new Date(Date.now() + 24 * 3600_000));

  const p = profile as unknown as Record<string, unknown>;
  const email =
    attr(p, 'email', 'mail', 'emailAddress', `${CLAIMS}/emailaddress`, 'urn:oid:0.9.2342.19200300.100.1.3')[0] ??
    (profile.nameID?.includes('@') ? profile.nameID : '');
  return {
    identity: {
      email: email ?? '',
      firstName: attr(p, 'firstName', 'givenName', 'given_name', `${CLAIMS}/givenname`, 'urn:oid:2.5.4.42')[0] ?? '',
      lastName: attr(p, 'lastName', 'sn', 'surname', 'family_name', `${CLAIMS}/surname`, 'urn:oid:2.5.4.4')[0] ?? '',
      groups: attr(
        p,
        target.row.group_attribute,
        'groups',
        'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
      ),
      logout: {
        nameId: profile.nameID ?? null,
        nameIdFormat: profile.nameIDFormat ?? null,
        sessionIndex: profile.sessionIndex ?? null,
      },
    },
    isPrevious: stored ? stored.is_previous === 1 : true,
  };
}

/** SP-initiated single logout: the IdP's logout URL with our signed LogoutRequest, when it has one. */
export async function samlLogoutUrl(
  deps: Deps,
  target: SsoTarget,
  who: { nameId: string; nameIdFormat: string | null; sessionIndex: string | null },
): Promise<string | null> {
  if (!target.row.saml_slo_url) return null;
  const saml = samlFor(deps, target);
  const profile = {
    issuer: target.row.saml_idp_entity_id ?? '',
    nameID: who.nameId,
    nameIDFormat: who.nameIdFormat ?? EMAIL_FORMAT,
    ...(who.sessionIndex ? { sessionIndex: who.sessionIndex } : {}),
  } as Parameters<SAML['getLogoutUrlAsync']>[0];
  return saml.getLogoutUrlAsync(profile, '', {});
}

/** The query-signature algorithms accepted on the HTTP-Redirect binding (SHA-1 is not). */
const REDIRECT_SIG_ALGS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'RSA-SHA256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': 'RSA-SHA384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'RSA-SHA512',
};
/** a logout message inflates to at most this (a real one is a few kilobytes) */
const LOGOUT_MAX_BYTES = 256 * 1024;

/**
 * HTTP-Redirect binding: the signature covers `SAMLRequest|SAMLResponse=…[&RelayState=…]&SigAlg=…`
 * exactly as they appear (still URL-encoded) in the query; a message without one is refused. Each
 * parameter must appear once, so the signed and the read value cannot differ.
 */
function verifyRedirectSignature(rawQuery: string, certs: string[]): void {
  const raw = new Map<string, string>();
  for (const token of rawQuery.split('&')) {
    if (!token) continue;
    const name = decodeURIComponent(token.split('=')[0] ?? '');
    if (raw.has(name)) throw new SsoError('invalid_answer', `logout query repeats ${name}`);
    raw.set(name, token);
  }
  const message = raw.get('SAMLRequest') ?? raw.get('SAMLResponse');
  const sigAlg = raw.get('SigAlg');
  const signature = raw.get('Signature');
  if (!message || !sigAlg || !signature) throw new SsoError('invalid_answer', 'unsigned logout message (redirect)');
  const algorithm = REDIRECT_SIG_ALGS[decodeURIComponent(sigAlg.slice('SigAlg='.length))];
  if (!algorithm) throw new SsoError('invalid_answer', 'unsupported logout signature algorithm');
  const relay = raw.get('RelayState');
  const signed = [message, ...(relay ? [relay] : []), sigAlg].join('&');
  const value = Buffer.from(decodeURIComponent(signature.slice('Signature='.length)), 'base64');
  const valid = certs.some((cert) => {
    try {
      return createVerify(algorithm).update(signed).verify(cert, value);
    } catch {
      return false;
    }
  });
  if (!valid) throw new SsoError('invalid_answer', 'bad logout signature (redirect)');
}

export type SamlLogoutMessage =
  | { kind: 'request'; profile: Parameters<SAML['getLogoutResponseUrlAsync']>[0] }
  | { kind: 'response' };

/**
 * A LogoutRequest or LogoutResponse of the organization's IdP, on either binding: signed (the query
 * signature, or an enveloped signature over the whole message on HTTP-POST, of which only the signed
 * part is read), addressed to our single logout URL, from the configured issuer, fresh and seen once.
 * A LogoutResponse must answer a LogoutRequest of ours, and uses it up.
 */
export async function samlLogoutMessage(
  deps: Deps,
  target: SsoTarget,
  http: { method: string; query: Record<string, string>; rawQuery: string; body: Record<string, string> },
): Promise<SamlLogoutMessage> {
  const redirect = http.method === 'GET';
  const params = redirect ? http.query : http.body;
  const isRequest = typeof params.SAMLRequest === 'string' && params.SAMLRequest !== '';
  const encoded = isRequest ? params.SAMLRequest : params.SAMLResponse;
  if (typeof encoded !== 'string' || !encoded) throw new SsoError('invalid_answer', 'no logout message');
  const certs = splitCerts(target.row.saml_idp_cert);
  let xml: string | null;
  try {
    if (redirect) {
      verifyRedirectSignature(http.rawQuery, certs);
      xml = inflateRawSync(Buffer.from(encoded, 'base64'), { maxOutputLength: LOGOUT_MAX_BYTES }).toString('utf8');
    } else {
      const posted = Buffer.from(encoded, 'base64').toString('utf8');
      if (posted.length > LOGOUT_MAX_BYTES) throw new SsoError('invalid_answer', 'logout message too large');
      const dom = parseStrict(posted);
      xml = verifiedXml(posted, dom.documentElement, certs);
      if (!xml) throw new SsoError('invalid_answer', 'unsigned or badly signed logout message (post)');
    }
  } catch (e) {
    throw reasonOf(e);
  }
  const root = parse(xml)?.documentElement;
  const kind = isRequest ? 'LogoutRequest' : 'LogoutResponse';
  if (!root || root.namespaceURI !== SAMLP || root.localName !== kind) {
    throw new SsoError('invalid_answer', `not a ${kind}`);
  }
  const sloUrl = serviceProviderUrls(deps, target.org.slug).slo_url;
  if (root.getAttribute('Destination') !== sloUrl) {
    throw new SsoError('invalid_answer', `wrong logout Destination ${root.getAttribute('Destination')}`);
  }
  const expectedIssuer = target.row.saml_idp_entity_id;
  if (expectedIssuer && issuerOf(root) !== expectedIssuer) {
    throw new SsoError('invalid_answer', `wrong logout issuer ${issuerOf(root)}`);
  }
  // fresh (the replay record below is kept longer than a message may be old) and seen once
  const now = Date.now();
  const issued = Date.parse(root.getAttribute('IssueInstant') ?? '');
  if (!Number.isFinite(issued) || Math.abs(now - issued) > REQUEST_TTL_MS + CLOCK_SKEW_MS) {
    throw new SsoError('expired', 'logout message issued too long ago or in the future');
  }
  const notOnOrAfter = root.getAttribute('NotOnOrAfter');
  if (notOnOrAfter && Date.parse(notOnOrAfter) + CLOCK_SKEW_MS <= now)
    throw new SsoError('expired', 'expired logout message');
  const id = root.getAttribute('ID');
  if (!id) throw new SsoError('invalid_answer', 'logout message without ID');
  await claimAssertion(deps, `saml-logout:${target.org.id}:${id}`, new Date(now + 24 * 3600_000));

  if (!isRequest) {
    const inResponseTo = root.getAttribute('InResponseTo');
    if (!inResponseTo || !(await requestStore(deps, target.org.id).removeAsync(inResponseTo))) {
      throw new SsoError('expired', 'LogoutResponse to an unknown or used request');
    }
    return { kind: 'response' };
  }
  const nameId = Array.from(root.childNodes).find(
    (n) => (n as Element).nodeType === 1 && (n as Element).localName === 'NameID',
  ) as Element | undefined;
  const person = nameId?.textContent?.trim();
  if (!nameId || !person) throw new SsoError('invalid_answer', 'LogoutRequest without NameID');
  const sessionIndex = Array.from(root.getElementsByTagNameNS(SAMLP, 'SessionIndex'))[0]?.textContent?.trim();
  return {
    kind: 'request',
    profile: {
      ID: id,
      issuer: issuerOf(root) ?? '',
      nameID: person,
      nameIDFormat: nameId.getAttribute('Format') ?? EMAIL_FORMAT,
      ...(sessionIndex ? { sessionIndex } : {}),
    } as Parameters<SAML['getLogoutResponseUrlAsync']>[0],
  };
}
