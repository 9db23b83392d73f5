import { SSO_MSG, type SsoSettings, type saveSsoSettingsRequest } from '@trainlab/contract';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { generate } from 'selfsigned';
import type { z } from 'zod';
import { organizations, ssoDomains, ssoSettings } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
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

export async function loadSso(deps: Deps, organizationId: number) {
  const [row] = await deps.db.select().from(ssoSettings).where(eq(ssoSettings.organization_id, organizationId));
  const domains = await deps.db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.organization_id, organizationId))
    .orderBy(ssoDomains.domain);
  return { row: row ?? null, domains: domains.map((d) => d.domain) };
}

function present(deps: Deps, org: OrgRow, row: SsoRow | null, domains: string[]): SsoSettings {
  const defaultDomain = org.org_domain?.trim().toLowerCase();
  return {
    organization_id: org.id,
    organization_name: org.name,
    configured: Boolean(row),
    protocol: (row?.protocol as SsoSettings['protocol']) ?? null,
    enabled: row ? row.enabled === 1 : false,
    domains: row ? domains : defaultDomain ? [defaultDomain] : [],
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
    service_provider: { ...serviceProviderUrls(deps, org.slug), signing_certificate: row?.sp_cert ?? '' },
  };
}

export async function getSsoSettings(deps: Deps, auth: AuthContext, organizationId?: number | null) {
  const org = await ssoTenant(deps, auth, organizationId);
  const { row, domains } = await loadSso(deps, org.id);
  return present(deps, org, row, domains);
}

async function fetchMetadata(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await res.text();
  } catch {
    throw invalidField('saml_metadata_url', SSO_MSG.metadataUnreadable);
  }
}

/** Our SAML signing key pair, made once per organization. */
async function newSigningPair(org: OrgRow) {
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
  const taken = await deps.db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(inArray(ssoDomains.domain, domains), ne(ssoDomains.organization_id, org.id)));
  if (taken.length) throw invalidField('domains', SSO_MSG.domainTaken);

  const { row: existing } = await loadSso(deps, org.id);
  let samlEntity = body.saml_idp_entity_id;
  let samlSso = body.saml_sso_url;
  let samlSlo = body.saml_slo_url;
  let samlCert = body.saml_idp_cert;
  if (body.protocol === 'saml' && (body.saml_metadata_xml || body.saml_metadata_url)) {
    const xml = body.saml_metadata_xml ?? (await fetchMetadata(body.saml_metadata_url!));
    const meta = parseIdpMetadata(xml);
    const field = body.saml_metadata_xml ? 'saml_metadata_xml' : 'saml_metadata_url';
    if (!meta || !meta.ssoUrl || meta.certs.length === 0) throw invalidField(field, SSO_MSG.metadataUnreadable);
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
  const pair = existing ? null : await newSigningPair(org);
  const values = {
    protocol: body.protocol,
    enabled: body.enabled ? 1 : 0,
    saml_metadata_url: body.protocol === 'saml' ? body.saml_metadata_url : null,
    saml_idp_entity_id: body.protocol === 'saml' ? samlEntity : null,
    saml_sso_url: body.protocol === 'saml' ? samlSso : null,
    saml_slo_url: body.protocol === 'saml' ? samlSlo : null,
    saml_idp_cert: body.protocol === 'saml' ? samlCert : null,
    oidc_issuer: body.protocol === 'oidc' ? body.oidc_issuer?.replace(/\/$/, '') || null : null,
    oidc_client_id: body.protocol === 'oidc' ? body.oidc_client_id : null,
    oidc_client_secret_enc: body.protocol === 'oidc' ? secretEnc : null,
    group_attribute: body.group_attribute ?? 'groups',
    subadmin_group: body.subadmin_group,
    password_login_disabled: body.password_login_disabled ? 1 : 0,
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
    await tx.delete(ssoDomains).where(eq(ssoDomains.organization_id, org.id));
    await tx.insert(ssoDomains).values(domains.map((domain) => ({ domain, organization_id: org.id })));
    // sp_link (spec 01 §3) shows our metadata once single sign-on is set up
    await tx
      .update(organizations)
      .set({ sp_link: serviceProviderUrls(deps, org.slug).metadata_url })
      .where(eq(organizations.id, org.id));
  });
  const saved = await loadSso(deps, org.id);
  return { ...present(deps, org, saved.row, saved.domains), message: SSO_MSG.saved };
}
