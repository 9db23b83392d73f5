import { z } from 'zod';
import { call } from '../api-base.js';
import type { Role } from '../roles.js';
import * as sso from '../schemas/sso.js';

const SSO_EDITORS: readonly Role[] = ['admin', 'organization'];

/**
 * Single sign-on per organization (issue 15). The identity provider's answers come back to browser
 * routes outside /api: POST /sso/saml/{org}/acs, GET /sso/oidc/{org}/callback, GET
 * /sso/saml/{org}/metadata, GET|POST /sso/saml/{org}/slo. They end on the web page /sso/complete
 * with `?code=` (traded here for the session) or `?error=` (a reason of SSO_MSG.errors).
 */
export const SSO_CALLS = {
  ssoSettings: call(
    'sso-settings',
    SSO_EDITORS,
    'An organization’s identity provider settings and the values our side shows (the admin names organization_id).',
    sso.ssoSettingsRequest,
    sso.ssoSettings,
  ),
  saveSsoSettings: call(
    'save-sso-settings',
    SSO_EDITORS,
    'Configure an organization’s identity provider (SAML 2.0 or OpenID Connect) and its e-mail domains.',
    sso.saveSsoSettingsRequest,
    sso.ssoSettings.extend({ message: z.string() }),
  ),
  checkSsoDomain: call(
    'check-sso-domain',
    SSO_EDITORS,
    'Look up the TXT record that proves the organization holds a claimed domain, and mark the domain verified when it is found.',
    sso.checkSsoDomainRequest,
    sso.ssoSettings.extend({ message: z.string() }),
  ),
  verifySsoDomain: call(
    'verify-sso-domain',
    ['admin'],
    'The admin marks an organization’s claimed domain verified (or not) by hand.',
    sso.verifySsoDomainRequest,
    sso.ssoSettings.extend({ message: z.string() }),
  ),
  ssoExchange: call(
    'sso-exchange',
    'public',
    'Trade the one-time code of a verified single sign-on for a session (same answer as /login).',
    sso.ssoExchangeRequest,
    sso.ssoExchangeResponse,
  ),
};
