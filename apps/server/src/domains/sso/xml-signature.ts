import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

/**
 * The enveloped XML signature of a SAML logout message on the HTTP-POST binding, checked with
 * xml-crypto's public API. node-saml does the same for its own messages (its `getVerifiedXml`), but
 * only under a deep path of the package (`lib/xml`) that Node's ESM resolver does not resolve from
 * the bundle, so it is written out here with node-saml's checks, in node-saml's order.
 */
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/** Parses a whole document; any parser error refuses it (as node-saml's parseDomFromString does). */
export function parseStrict(xml: string): Document {
  const errors: string[] = [];
  const onError = (msg: string) => {
    errors.push(msg);
  };
  const doc = new DOMParser({ locator: {}, errorHandler: { error: onError, fatalError: onError } }).parseFromString(
    xml,
    'text/xml',
  ) as unknown as Document;
  if (errors.length || !doc?.documentElement) throw new Error(`not a valid XML document: ${errors[0] ?? 'empty'}`);
  return doc;
}

const elementChildren = (node: Element, ns: string, name: string): Element[] =>
  Array.from(node.childNodes).filter(
    (c): c is Element => c.nodeType === 1 && (c as Element).namespaceURI === ns && (c as Element).localName === name,
  );

/**
 * The XML that `node`'s own enveloped signature signs, verified against one of `certs`, or null
 * when it has no signature or none of the certificates verifies it. Only the returned XML may be read:
 * the rest of the document is not covered by the signature.
 */
export function verifiedXml(fullXml: string, node: Element, certs: string[]): string | null {
  // the XML processor normalizes newlines before the signature is checked (node-saml does the same)
  const xml = fullXml.replace(/\r\n?/g, '\n');
  const signatures = elementChildren(node, DSIG, 'Signature');
  if (signatures.length < 1) return null;
  if (signatures.length > 1) throw new Error('Too many signatures found for this element');
  const signature = signatures[0]!;
  if (signature.getElementsByTagNameNS(DSIG, 'Transform').length > 2) {
    throw new Error('Invalid signature, too many transforms');
  }
  for (const cert of certs) {
    const sig = new SignedXml({ publicCert: cert });
    sig.loadSignature(signature as unknown as Node);
    const refs = sig.getReferences();
    if (refs.length !== 1 || !signature.parentNode) return null;
    // only an enveloped signature: the one reference names the signature's parent, and only it
    const uri = refs[0]!.uri ?? '';
    const refId = uri.startsWith('#') ? uri.slice(1) : uri;
    if (!refId) throw new Error('signature reference uri not found');
    if (refId.includes("'") || refId.includes('"')) throw new Error('ref URI included a quote character');
    const doc = signature.ownerDocument;
    const referenced = Array.from(doc.getElementsByTagName('*')).filter((e) => e.getAttribute('ID') === refId);
    if (referenced.length !== 1) throw new Error('Invalid signature: ID cannot refer to more than one element');
    if (referenced[0] !== signature.parentNode) {
      throw new Error("Invalid signature: Referenced node does not refer to it's parent element");
    }
    try {
      if (!sig.checkSignature(xml)) continue;
      const signed = sig.getSignedReferences();
      if (signed.length !== 1) throw new Error('Only 1 signed references should be present in signature');
      return signed[0]!;
    } catch {
      // another certificate may verify it
    }
  }
  return null;
}
