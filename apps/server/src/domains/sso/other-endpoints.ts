import { anyone, must, type OtherEndpoint, redirect } from '../../platform/http/other-endpoints';

const SSO_SLUG = { slug: 'The organization’s slug.' };
const SSO_DONE =
  'See Other: to the web page /sso/complete?code=… (a one-time code for /sso-exchange), or ?error=<reason>.';

/**
 * Single sign-on: the identity provider's browser navigations (docs/sso.md).
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const SSO_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    path: '/sso/saml/{slug}/metadata',
    methods: {
      get: {
        summary: 'Our SAML service provider metadata for the organization’s identity provider.',
        access: anyone(),
        params: SSO_SLUG,
        responses: {
          200: { description: 'The metadata (entity id, ACS and SLO URLs).', type: 'application/samlmetadata+xml' },
          404: { description: 'No single sign-on is configured for this organization.', type: 'text/plain' },
        },
      },
    },
  },
  {
    path: '/sso/saml/{slug}/acs',
    methods: {
      post: {
        summary: 'SAML assertion consumer (HTTP-POST binding): signs the person in and ends on the web app.',
        access: anyone('the SAML response must be signed by the organization’s identity provider'),
        params: SSO_SLUG,
        body: {
          type: 'application/x-www-form-urlencoded',
          description: 'SAMLResponse (base64) and RelayState.',
          schema: {
            type: 'object',
            properties: { SAMLResponse: { type: 'string' }, RelayState: { type: 'string' } },
            required: ['SAMLResponse'],
          },
        },
        responses: { 303: redirect(SSO_DONE) },
      },
    },
  },
  {
    path: '/sso/saml/{slug}/slo',
    methods: {
      get: {
        summary:
          'SAML single logout started by the identity provider (HTTP-Redirect binding): ends the person’s sessions.',
        access: anyone('the logout request must be signed by the organization’s identity provider'),
        params: SSO_SLUG,
        query: {
          SAMLRequest: 'The logout request (deflated, base64).',
          SAMLResponse: 'Or the logout response to one of ours.',
          RelayState: 'Sent back with our answer.',
          SigAlg: 'The signature algorithm.',
          Signature: 'The identity provider’s signature of the query.',
        },
        responses: {
          303: redirect(
            'See Other: to the identity provider with our logout response, or to /login; on a refusal to /sso/complete?error=<reason>.',
          ),
        },
      },
      post: {
        summary:
          'SAML single logout (HTTP-POST binding): a logout request from the identity provider, or its response.',
        access: anyone('the message must be signed by the organization’s identity provider'),
        params: SSO_SLUG,
        body: {
          type: 'application/x-www-form-urlencoded',
          description: 'SAMLRequest or SAMLResponse (base64), and RelayState.',
          schema: {
            type: 'object',
            properties: {
              SAMLRequest: { type: 'string' },
              SAMLResponse: { type: 'string' },
              RelayState: { type: 'string' },
            },
          },
        },
        responses: {
          303: redirect(
            'See Other: to the identity provider with our logout response, or to /login; on a refusal to /sso/complete?error=<reason>.',
          ),
        },
      },
    },
  },
  {
    path: '/sso/oidc/{slug}/callback',
    methods: {
      get: {
        summary:
          'OpenID Connect redirect URI: exchanges the code (PKCE, state, nonce checked) and ends on the web app.',
        access: anyone('the state must be one this server issued when /login started the sign-in'),
        params: SSO_SLUG,
        query: {
          code: 'The authorization code.',
          state: must('The state issued at the start.'),
          error: 'The provider’s refusal.',
          error_description: 'The refusal’s explanation.',
        },
        responses: { 303: redirect(SSO_DONE) },
      },
    },
  },
];
