import { z } from 'zod';
import { ALWAYS, flag, idField, isWebUrl, optionalText } from '../validation.js';
import { sessionUser } from './auth.js';

/** Texts of single sign-on (issue 15). */
export const SSO_MSG = {
  saved: 'Single sign-on settings saved.',
  passwordLoginDisabled: 'Your organization signs you in with its own account: use Login With Enterprise.',
  codeInvalid: 'This sign-in link is invalid or has expired. Please sign in again.',
  domainTaken: 'This domain already signs in through another organization.',
  metadataUnreadable: 'The identity provider metadata could not be read.',
  publicMailDomain: 'A public mail domain (such as gmail.com) cannot be used for single sign-on.',
  domainVerified: 'The domain is verified.',
  domainMarkedVerified: 'The domain is marked verified.',
  domainMarkedUnverified: 'The domain is marked not verified.',
  domainNotClaimed: 'This domain is not one of the organization’s domains: save it in the settings first.',
  domainRecordMissing:
    'The TXT record was not found at the domain or at its _trainlab name. DNS changes can take a while to appear: please try again later.',
  domainDnsFailed: 'The DNS server did not answer. Please try again later.',
  issuerNotHttps: 'The issuer address must start with https://.',
  discoveryUnreadable: 'The issuer’s OpenID Connect discovery document could not be read.',
  /** the reasons of the error page (/sso/complete?error=…) */
  errors: {
    unknown_domain: 'Enterprise login is not configured for this e-mail domain.',
    misconfigured: 'Your organization’s single sign-on is not set up correctly. Please tell your IT administrator.',
    invalid_answer: 'The answer of your organization’s identity provider could not be verified. Please sign in again.',
    expired: 'Your sign-in took too long or was already used. Please sign in again.',
    refused: 'Your organization’s identity provider did not sign you in.',
    inactive: 'Your account is deactivated. Please contact the administrator.',
    awaiting_approval: 'Your account is waiting for approval. You will get a mail once it is approved.',
  },
} as const;
export type SsoErrorReason = keyof typeof SSO_MSG.errors;

export const SSO_PROTOCOLS = ['saml', 'oidc'] as const;
export const SSO_DOMAINS_MAX = 20;

/**
 * Mail domains anyone can have an address at: claiming one would send strangers to an
 * organization's identity provider, so none of them is ever accepted.
 */
export const PUBLIC_MAIL_DOMAINS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.in',
  'ymail.com',
  'rediffmail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'zoho.com',
  'zohomail.in',
  'gmx.com',
  'gmx.net',
  'mail.com',
  'yandex.com',
  'yandex.ru',
  'qq.com',
  '163.com',
];

/** The TXT record that proves an organization holds a domain (at the domain or at `_trainlab.<domain>`). */
export const SSO_VERIFICATION_PREFIX = 'trainlab-verification=';
export const SSO_VERIFICATION_LABEL = '_trainlab';

const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    message: 'The domains must be valid domain names.',
  })
  .refine((d) => !PUBLIC_MAIL_DOMAINS.includes(d), { message: SSO_MSG.publicMailDomain });
const url = (max = 500) =>
  optionalText(max).refine((v) => v === null || isWebUrl(v), {
    message: 'The link must be a valid URL.',
  });

/** The organization an admin acts for; an organization account always acts for itself. */
export const ssoSettingsRequest = z.object({ organization_id: idField().nullish() });

export const saveSsoSettingsRequest = z
  .object({
    organization_id: idField().nullish(),
    protocol: z.enum(SSO_PROTOCOLS, { message: 'The selected protocol is invalid.' }),
    enabled: flag().optional().default(true),
    domains: z
      .array(domainName)
      .min(1, { message: 'The domains field is required.' })
      .max(SSO_DOMAINS_MAX, { message: `The domains may not have more than ${SSO_DOMAINS_MAX} items.` }),
    saml_metadata_url: url(),
    saml_metadata_xml: optionalText(200_000),
    saml_idp_entity_id: optionalText(500),
    saml_sso_url: url(),
    saml_slo_url: url(),
    saml_idp_cert: optionalText(20_000),
    oidc_issuer: url(),
    oidc_client_id: optionalText(500),
    /** empty keeps the stored secret */
    oidc_client_secret: optionalText(2000),
    group_attribute: optionalText(200),
    subadmin_group: optionalText(200),
    password_login_disabled: flag().optional().default(false),
    /** the OpenID provider never sends email_verified: its absence is then accepted (false is always refused) */
    oidc_email_verified_not_sent: flag().optional().default(false),
  })
  .refine((b) => b.protocol !== 'saml' || Boolean(b.saml_metadata_url || b.saml_metadata_xml || b.saml_sso_url), {
    message: 'The SSO URL field is required when no metadata is given.',
    path: ['saml_sso_url'],
    ...ALWAYS,
  })
  .refine((b) => b.protocol !== 'saml' || Boolean(b.saml_metadata_url || b.saml_metadata_xml || b.saml_idp_cert), {
    message: 'The certificate field is required when no metadata is given.',
    path: ['saml_idp_cert'],
    ...ALWAYS,
  })
  .refine((b) => b.protocol !== 'oidc' || Boolean(b.oidc_issuer), {
    message: 'The issuer field is required.',
    path: ['oidc_issuer'],
    ...ALWAYS,
  })
  .refine((b) => b.protocol !== 'oidc' || Boolean(b.oidc_client_id), {
    message: 'The client id field is required.',
    path: ['oidc_client_id'],
    ...ALWAYS,
  });

/** A claimed domain: verified or not, and the TXT record that proves it. */
export const ssoDomainState = z.object({
  domain: z.string(),
  verified: z.boolean(),
  /** how it was verified: its DNS record, or the admin by hand */
  verified_by: z.enum(['dns', 'admin']).nullable(),
  verified_at: z.string().nullable(),
  /** publish a TXT record with record_value at record_name (or at the domain itself) */
  record_name: z.string(),
  record_value: z.string(),
});
export type SsoDomainState = z.infer<typeof ssoDomainState>;

export const checkSsoDomainRequest = z.object({ organization_id: idField().nullish(), domain: domainName });
export const verifySsoDomainRequest = z.object({ organization_id: idField(), domain: domainName, verified: flag() });

/** What our side shows the organization's IT administrator. */
export const ssoServiceProvider = z.object({
  entity_id: z.string(),
  acs_url: z.string(),
  slo_url: z.string(),
  metadata_url: z.string(),
  redirect_uri: z.string(),
  signing_certificate: z.string(),
});

export const ssoSettings = z.object({
  organization_id: z.number(),
  organization_name: z.string(),
  configured: z.boolean(),
  protocol: z.enum(SSO_PROTOCOLS).nullable(),
  enabled: z.boolean(),
  domains: z.array(z.string()),
  /** each saved domain's proof; only verified domains route people to the provider */
  domain_states: z.array(ssoDomainState),
  saml_metadata_url: z.string().nullable(),
  saml_idp_entity_id: z.string().nullable(),
  saml_sso_url: z.string().nullable(),
  saml_slo_url: z.string().nullable(),
  saml_idp_cert: z.string().nullable(),
  oidc_issuer: z.string().nullable(),
  oidc_client_id: z.string().nullable(),
  /** the secret itself is never returned */
  has_client_secret: z.boolean(),
  group_attribute: z.string(),
  subadmin_group: z.string().nullable(),
  password_login_disabled: z.boolean(),
  oidc_email_verified_not_sent: z.boolean(),
  service_provider: ssoServiceProvider,
});
export type SsoSettings = z.infer<typeof ssoSettings>;

/** /login with is_sso: where the browser goes next (the organization's identity provider). */
export const ssoRedirectResponse = z.object({ sso_redirect: z.string() });

export const ssoExchangeRequest = z.object({ code: z.string().trim().min(1).max(200) });
export const ssoExchangeResponse = z.object({ success: sessionUser });
