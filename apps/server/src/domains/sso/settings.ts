import {
  isWebUrl,
  SSO_MSG,
  SSO_VERIFICATION_LABEL,
  SSO_VERIFICATION_PREFIX,
  type SsoDomainState,
  type SsoSettings,
  type saveSsoSettingsRequest,
} from '@trainlab/contract';
import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { organizations, ssoDomains, ssoSettings } from '../../db/schema';
import { newToken } from '../../platform/auth/tokens';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { OutboundRefused, outboundFetch, outboundRefusal } from '../../platform/http/outbound-fetch';
import { callerOrganizationId } from '../organizations/shared';
import { serviceProviderUrls } from './endpoints';
import { parseIdpMetadata } from './metadata';

type OrgRow = typeof organizations.$inferSelect;
export type SsoRow = typeof ssoSettings.$inferSelect;

/** The organization whose settings are edited: the admin names it, an organization is always itself. */
export async function ssoTenant(deps: Deps, auth: AuthContext, organizationId?: number | null): Promise<OrgRow> {
  let id: number;
  if (auth.user.roles.includes('admin')) {
    if (!organizationId) throw invalidField('organization_id', 'The organization id field is required.');
    id = organizationId;
  } else {
    id = callerOrganizationId(auth);
    // another organization's settings answer exactly like a missing one
    if (organizationId && organizationId !== id) throw notFound();
  }
  const [org] = await deps.db.select().from(organizations).where(eq(organizations.id, id));
  if (!org) throw notFound();
  return org;
}

type DomainRow = typeof ssoDomains.$inferSelect;

/** Where and what the TXT record proving a domain is (docs/sso.md). */
export const recordName = (domain: string) => `${SSO_VERIFICATION_LABEL}.${domain}`;
export const recordValue = (token: string) => `${SSO_VERIFICATION_PREFIX}${token}`;

export async function loadSso(deps: Deps, organizationId: number) {
  const [row] = await deps.db.select().from(ssoSettings).where(eq(ssoSettings.organization_id, organizationId));
  const domains = await deps.db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.organization_id, organizationId))
    .orderBy(ssoDomains.domain);
  return { row: row ?? null, domains };
}

const domainState = (d: DomainRow): SsoDomainState => ({
  domain: d.domain,
  verified: Boolean(d.verified_at),
  verified_by: d.verified_at ? (d.verified_by as SsoDomainState['verified_by']) : null,
  verified_at: d.verified_at?.toISOString() ?? null,
  record_name: recordName(d.domain),
  record_value: recordValue(d.verification_token),
});

function present(deps: Deps, org: OrgRow, row: SsoRow | null, domainRows: DomainRow[]): SsoSettings {
  const domains = domainRows.map((d) => d.domain);
  const defaultDomain = org.org_domain?.trim().toLowerCase();
  return {
    organization_id: org.id,
    organization_name: org.name,
    configured: Boolean(row),
    protocol: (row?.protocol as SsoSettings['protocol']) ?? null,
    enabled: row ? row.enabled === 1 : false,
    domains: row ? domains : defaultDomain ? [defaultDomain] : [],
    domain_states: row ? domainRows.map(domainState) : [],
    saml_metadata_url: row?.saml_metadata_url ?? null,
    saml_idp_entity_id: row?.saml_idp_entity_id ?? null,
    saml_sso_url: row?.saml_sso_url ?? (row ? null : (org.ip_link ?? null)),
    saml_slo_url: row?.saml_slo_url ?? null,
    saml_idp_cert: row?.saml_idp_cert ?? null,
    oidc_issuer: row?.oidc_issuer ?? null,
    oidc_client_id: row?.oidc_client_id ?? null,
    has_client_secret: Boolean(row?.oidc_client_secret_enc),
    group_attribute: row?.group_attribute ?? 'groups',
    subadmin_group: row?.subadmin_group ?? null,
    password_login_disabled: row?.password_login_disabled === 1,
    oidc_email_verified_not_sent: row?.oidc_email_verified_not_sent === 1,
    service_provider: { ...serviceProviderUrls(deps, org.slug), signing_certificate: row?.sp_cert ?? '' },
  };
}

export async function getSsoSettings(deps: Deps, auth: AuthContext, organizationId?: number | null) {
  const org = await ssoTenant(deps, auth, organizationId);
  const { row, domains } = await loadSso(deps, org.id);
  return present(deps, org, row, domains);
}

/** The IdP's metadata at the URL the organization gave, fetched through the outbound guard. */
async function fetchMetadata(deps: Deps, url: string): Promise<string> {
  try {
    const res = await outboundFetch(deps.config, url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await res.text();
  } catch (e) {
    if (e instanceof OutboundRefused) throw invalidField('saml_metadata_url', e.message);
    throw invalidField('saml_metadata_url', SSO_MSG.metadataUnreadable);
  }
}

/** The OpenID issuer must answer its discovery document (through the outbound guard) before it is saved. */
async function checkIssuer(deps: Deps, issuer: string, clientId: string, secretEnc: string): Promise<void> {
  const { discoverIssuer, LOOPBACK } = await import('./oidc');
  const url = new URL(issuer);
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    throw invalidField('oidc_issuer', SSO_MSG.issuerNotHttps);
  try {
    await discoverIssuer(deps, issuer, clientId, deps.cipher.decrypt(secretEnc));
  } catch (e) {
    throw invalidField('oidc_issuer', outboundRefusal(e)?.message ?? SSO_MSG.discoveryUnreadable);
  }
}

/** Our SAML signing key pair, made once per organization. */
async function newSigningPair(org: OrgRow) {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: `TrainLab SSO ${org.slug}`.slice(0, 64) }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600_000),
    algorithm: 'sha256',
  });
  return { key: pems.private, cert: pems.cert };
}

export async function saveSsoSettings(deps: Deps, auth: AuthContext, body: z.output<typeof saveSsoSettingsRequest>) {
  const org = await ssoTenant(deps, auth, body.organization_id);
  const domains = [...new Set(body.domains)];
  // a domain another organization has proved is taken; an unproved claim elsewhere keeps no one out
  const taken = await deps.db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(
      and(
        inArray(ssoDomains.domain, domains),
        ne(ssoDomains.organization_id, org.id),
        isNotNull(ssoDomains.verified_at),
      ),
    );
  if (taken.length) throw invalidField('domains', SSO_MSG.domainTaken);

  const { row: existing, domains: claimed } = await loadSso(deps, org.id);
  let samlEntity = body.saml_idp_entity_id;
  let samlSso = body.saml_sso_url;
  let samlSlo = body.saml_slo_url;
  let samlCert = body.saml_idp_cert;
  if (body.protocol === 'saml' && (body.saml_metadata_xml || body.saml_metadata_url)) {
    const xml = body.saml_metadata_xml ?? (await fetchMetadata(deps, body.saml_metadata_url!));
    const meta = parseIdpMetadata(xml);
    const field = body.saml_metadata_xml ? 'saml_metadata_xml' : 'saml_metadata_url';
    // its addresses are held to the rule of the form's own address fields (a parser-readable http(s) URL)
    if (
      !meta ||
      !meta.ssoUrl ||
      !isWebUrl(meta.ssoUrl) ||
      (meta.sloUrl && !isWebUrl(meta.sloUrl)) ||
      !meta.certs.length
    )
      throw invalidField(field, SSO_MSG.metadataUnreadable);
    samlEntity = meta.entityId ?? samlEntity;
    samlSso = meta.ssoUrl;
    samlSlo = meta.sloUrl ?? samlSlo;
    samlCert = meta.certs.join('\n');
  }
  if (body.protocol === 'saml' && samlCert && !/BEGIN CERTIFICATE/.test(samlCert)) {
    const { toPem } = await import('./metadata');
    samlCert = toPem(samlCert);
  }
  let secretEnc = existing?.oidc_client_secret_enc ?? null;
  if (body.oidc_client_secret) secretEnc = deps.cipher.encrypt(body.oidc_client_secret);
  if (body.protocol === 'oidc' && !secretEnc) {
    throw invalidField('oidc_client_secret', 'The client secret field is required.');
  }
  const issuer = body.protocol === 'oidc' ? body.oidc_issuer?.replace(/\/$/, '') || null : null;
  if (issuer && body.oidc_client_id && secretEnc) await checkIssuer(deps, issuer, body.oidc_client_id, secretEnc);
  const pair = existing ? null : await newSigningPair(org);
  const values = {
    protocol: body.protocol,
    enabled: body.enabled ? 1 : 0,
    saml_metadata_url: body.protocol === 'saml' ? body.saml_metadata_url : null,
    saml_idp_entity_id: body.protocol === 'saml' ? samlEntity : null,
    saml_sso_url: body.protocol === 'saml' ? samlSso : null,
    saml_slo_url: body.protocol === 'saml' ? samlSlo : null,
    saml_idp_cert: body.protocol === 'saml' ? samlCert : null,
    oidc_issuer: issuer,
    oidc_client_id: body.protocol === 'oidc' ? body.oidc_client_id : null,
    oidc_client_secret_enc: body.protocol === 'oidc' ? secretEnc : null,
    group_attribute: body.group_attribute ?? 'groups',
    subadmin_group: body.subadmin_group,
    password_login_disabled: body.password_login_disabled ? 1 : 0,
    oidc_email_verified_not_sent: body.protocol === 'oidc' && body.oidc_email_verified_not_sent ? 1 : 0,
    updated_at: new Date(),
  };
  await deps.db.transaction(async (tx) => {
    if (existing) {
      await tx.update(ssoSettings).set(values).where(eq(ssoSettings.organization_id, org.id));
    } else {
      await tx.insert(ssoSettings).values({
        organization_id: org.id,
        ...values,
        sp_private_key_enc: deps.cipher.encrypt(pair!.key),
        sp_cert: pair!.cert,
      });
    }
    // a domain kept keeps its token and its proof; a new one gets a token and waits for its proof
    const dropped = claimed.map((d) => d.domain).filter((d) => !domains.includes(d));
    if (dropped.length) {
      await tx
        .delete(ssoDomains)
        .where(and(eq(ssoDomains.organization_id, org.id), inArray(ssoDomains.domain, dropped)));
    }
    const added = domains.filter((d) => !claimed.some((c) => c.domain === d));
    if (added.length) {
      await tx
        .insert(ssoDomains)
        .values(added.map((domain) => ({ domain, organization_id: org.id, verification_token: newToken(24) })));
    }
    // sp_link (spec 01 §3) shows our metadata once single sign-on is set up
    await tx
      .update(organizations)
      .set({ sp_link: serviceProviderUrls(deps, org.slug).metadata_url })
      .where(eq(organizations.id, org.id));
  });
  const saved = await loadSso(deps, org.id);
  return { ...present(deps, org, saved.row, saved.domains), message: SSO_MSG.saved };
}
