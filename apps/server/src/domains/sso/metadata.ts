import { DOMParser } from '@xmldom/xmldom';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

export interface IdpMetadata {
  entityId: string | null;
  ssoUrl: string | null;
  sloUrl: string | null;
  certs: string[];
}

/** Wraps a base64 certificate body as PEM. */
export function toPem(body: string): string {
  const clean = body.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${clean.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----`;
}

/** Reads an IdP's SAML metadata: entity id, single sign-on / logout URLs and signing certificates. */
export function parseIdpMetadata(xml: string): IdpMetadata | null {
  let doc: Document;
  try {
    doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} } }).parseFromString(
      xml,
      'text/xml',
    ) as unknown as Document;
  } catch {
    return null;
  }
  const idp = doc?.getElementsByTagNameNS(MD, 'IDPSSODescriptor')?.[0];
  if (!idp) return null;
  const root = doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const pick = (tag: string) => {
    const nodes = Array.from(idp.getElementsByTagNameNS(MD, tag));
    const by = (binding: string) => nodes.find((n) => n.getAttribute('Binding') === binding)?.getAttribute('Location');
    return by(REDIRECT) ?? by(POST) ?? null;
  };
  const certs: string[] = [];
  for (const kd of Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))) {
    const use = kd.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const c of Array.from(kd.getElementsByTagNameNS(DS, 'X509Certificate'))) {
      if (c.textContent?.trim()) certs.push(toPem(c.textContent));
    }
  }
  return {
    entityId: root?.getAttribute('entityID') ?? null,
    ssoUrl: pick('SingleSignOnService'),
    sloUrl: pick('SingleLogoutService'),
    certs,
  };
}
