import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, sessions, users } from './accounts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An organization's identity provider (one per organization). `protocol` is 'saml' or 'oidc'.
 * Secrets (the OIDC client secret, our SAML signing key) are stored encrypted with the field cipher.
 */
export const ssoSettings = pgTable('sso_settings', {
  organization_id: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  protocol: text('protocol').notNull(),
  /** 1 on, 0 off */
  enabled: integer('enabled').notNull().default(1),
  saml_metadata_url: text('saml_metadata_url'),
  saml_idp_entity_id: text('saml_idp_entity_id'),
  saml_sso_url: text('saml_sso_url'),
  saml_slo_url: text('saml_slo_url'),
  /** PEM certificates of the IdP, one or more separated by blank lines */
  saml_idp_cert: text('saml_idp_cert'),
  oidc_issuer: text('oidc_issuer'),
  oidc_client_id: text('oidc_client_id'),
  oidc_client_secret_enc: text('oidc_client_secret_enc'),
  /** the assertion attribute / claim holding the person's groups */
  group_attribute: text('group_attribute').notNull().default('groups'),
  /** members of this group become org_subadmin */
  subadmin_group: text('subadmin_group'),
  /** 1: people of the organization's domains may not sign in with a password */
  password_login_disabled: integer('password_login_disabled').notNull().default(0),
  /** 1: the OpenID provider never sends email_verified (its e-mails are its own): absence accepted; false still refused */
  oidc_email_verified_not_sent: integer('oidc_email_verified_not_sent').notNull().default(0),
  sp_private_key_enc: text('sp_private_key_enc').notNull(),
  sp_cert: text('sp_cert').notNull(),
  updated_at: at('updated_at').notNull().defaultNow(),
});

/**
 * E-mail domains an organization claims (lower case). A claim routes people to the organization's
 * provider only once it is verified: by a DNS TXT record holding `verification_token` (checked on
 * request) or by the admin by hand. Several organizations may claim a domain; only one may hold it
 * verified (the partial unique index), so an early claim cannot keep the real owner out.
 */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').notNull(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** the value of the TXT record `trainlab-verification=<token>` (claims saved before it get one) */
    verification_token: text('verification_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    verified_at: at('verified_at'),
    /** 'dns' or 'admin' */
    verified_by: text('verified_by'),
  },
  (t) => [
    primaryKey({ columns: [t.organization_id, t.domain] }),
    index('sso_domains_organization_idx').on(t.organization_id),
    uniqueIndex('sso_domains_verified_domain_idx').on(t.domain).where(sql`${t.verified_at} is not null`),
  ],
);

export const ssoRequests = pgTable(
  'sso_requests',
  {
    id: serial('id').primaryKey(),
    /** SAML request ID or OIDC state */
    request_key: text('request_key').notNull().unique(),
    organization_id: integer('organization_id').notNull(),
    protocol: text('protocol').notNull(),
    value: text('value').notNull().default(''),
    nonce: text('nonce'),
    code_verifier: text('code_verifier'),
    is_previous: integer('is_previous').notNull().default(1),
    created_at: at('created_at').notNull().defaultNow(),
    expires_at: at('expires_at').notNull(),
  },
  (t) => [index('sso_requests_expires_idx').on(t.expires_at)],
);

/** Assertion / ID token identifiers already accepted: each is accepted once. */
export const ssoSeenAssertions = pgTable('sso_seen_assertions', {
  assertion_key: text('assertion_key').primaryKey(),
  expires_at: at('expires_at').notNull(),
});

/** One-time codes handing a verified sign-in to the web app, which trades it for a session. */
export const ssoLoginCodes = pgTable('sso_login_codes', {
  code_hash: text('code_hash').primaryKey(),
  user_id: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  is_previous: integer('is_previous').notNull().default(1),
  expires_at: at('expires_at').notNull(),
  used_at: at('used_at'),
  ...logoutColumns(),
});

function logoutColumns() {
  return {
    organization_id: integer('organization_id'),
    protocol: text('protocol'),
    /** SAML: the NameID and session index single logout names */
    name_id: text('name_id'),
    name_id_format: text('name_id_format'),
    session_index: text('session_index'),
    /** OIDC: the ID token, the hint of RP-initiated logout (encrypted) */
    id_token_enc: text('id_token_enc'),
  };
}

/** Sessions opened by single sign-on: what our logout needs to end the provider's session too. */
export const ssoSessions = pgTable('sso_sessions', {
  session_id: integer('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  ...logoutColumns(),
});
