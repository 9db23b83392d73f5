import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrict, verifiedXml } from '../src/domains/sso/xml-signature';
import { startSamlIdp, type TestSamlIdp } from './sso-idps';

/**
 * The enveloped signature of a SAML logout message on HTTP-POST (issue 38: checked with xml-crypto's
 * public API, with node-saml's rules, since node-saml's own helper sits under a deep path the bundle
 * cannot load). The attacks first: a changed signed value, a second element with the signed ID
 * (signature wrapping), a signature over another element, two signatures, a stranger's key.
 */
let idp: TestSamlIdp;
let other: TestSamlIdp;
const SLO = 'http://app.test/sso/saml/acme/slo';
beforeAll(async () => {
  [idp, other] = await Promise.all([startSamlIdp(), startSamlIdp()]);
});
afterAll(async () => {
  await Promise.all([idp.close(), other.close()]);
});

const signedRequest = (nameId = 'asha@acme.test') =>
  Buffer.from(idp.logoutRequest(nameId, SLO), 'base64').toString('utf8');
const check = (xml: string, certs = [idp.cert]) => verifiedXml(xml, parseStrict(xml).documentElement, certs);

describe('verifiedXml', () => {
  it('answers exactly the signed message for the IdP certificate, and null for another one', () => {
    const xml = signedRequest();
    const signed = check(xml);
    expect(signed).toContain('<saml:NameID');
    expect(signed).toContain('asha@acme.test');
    expect(signed).not.toContain('SignatureValue');
    expect(check(xml, [other.cert])).toBeNull();
    // any of several certificates (a rollover) may verify it
    expect(check(xml, [other.cert, idp.cert])).toBe(signed);
  });

  it('answers null for a changed signed value and for a message without a signature', () => {
    expect(check(signedRequest().replace('asha@acme.test', 'boss@acme.test'))).toBeNull();
    const unsigned = signedRequest().replace(/<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/, '');
    expect(unsigned).not.toContain('SignatureValue');
    expect(check(unsigned)).toBeNull();
  });

  it('refuses signature wrapping: a second element with the signed ID', () => {
    const xml = signedRequest();
    const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
    const wrapped = xml.replace(
      '</samlp:LogoutRequest>',
      `<samlp:Extensions><samlp:LogoutRequest ID="${id}"><saml:NameID>asha@acme.test</saml:NameID></samlp:LogoutRequest></samlp:Extensions></samlp:LogoutRequest>`,
    );
    expect(() => check(wrapped)).toThrow(/ID cannot refer to more than one element/);
  });

  it('refuses a signature that signs another element than the one it sits in', () => {
    // the signed message moved inside an unsigned one, with its signature lifted to the outer one
    const inner = signedRequest();
    const signature = /<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/.exec(inner)![0];
    const innerUnsigned = inner.replace(signature, '');
    const outer = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_outer">${signature}<samlp:Extensions>${innerUnsigned}</samlp:Extensions></samlp:LogoutRequest>`;
    expect(() => check(outer)).toThrow(/does not refer to it's parent element/);
  });

  it('refuses two signatures on one message', () => {
    const xml = signedRequest();
    const signature = /<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/.exec(xml)![0];
    expect(() => check(xml.replace(signature, signature + signature))).toThrow(/Too many signatures/);
  });
});

describe('parseStrict', () => {
  it('refuses a document the parser reports errors in, or no document at all (as node-saml does)', () => {
    for (const bad of ['<a>&bogus;</a>', '<a x="1" x="2"/>', '', 'not xml'])
      expect(() => parseStrict(bad), bad).toThrow(/not a valid XML document/);
    expect(parseStrict('<a/>').documentElement.localName).toBe('a');
  });
});
