/**
 * The SAML identity provider of the server tests (apps/server/test/sso-idps.ts), shared with the
 * journeys: it signs its Responses and logout messages itself and serves the pages a browser walks
 * (HTTP-Redirect AuthnRequest in, signed HTTP-POST Response out, single logout).
 */
export { startSamlIdp, type TestSamlIdp } from '../../apps/server/test/sso-idps';
