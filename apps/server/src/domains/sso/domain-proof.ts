import { Resolver } from 'node:dns/promises';
import { type checkSsoDomainRequest, SSO_MSG, type verifySsoDomainRequest } from '@trainlab/contract';
import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { ssoDomains } from '../../db/schema';
import type { Config } from '../../platform/config';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { getSsoSettings, recordName, recordValue, ssoTenant } from './settings';

/**
 * Proof that an organization holds an e-mail domain before the domain routes anyone to its identity
 * provider: a TXT record `trainlab-verification=<token>` at the domain or at `_trainlab.<domain>`,
 * looked up through DNS_RESOLVER (the system's resolvers when unset), or the admin's word.
 */

function resolverFor(config: Pick<Config, 'DNS_RESOLVER'>): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (config.DNS_RESOLVER) resolver.setServers([config.DNS_RESOLVER]);
  return resolver;
}

/** No record at the name (not an error of the lookup itself). */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** The TXT strings at `name` (a record split in chunks is joined), none when the name has no TXT. */
async function txtAt(resolver: Resolver, name: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join('').trim());
  } catch (e) {
    if (NO_RECORD.has((e as NodeJS.ErrnoException).code ?? '')) return [];
    throw e;
  }
}

/** Whether the domain publishes the organization's verification value. */
export async function domainPublishes(config: Pick<Config, 'DNS_RESOLVER'>, domain: string, token: string) {
  const resolver = resolverFor(config);
  const wanted = recordValue(token);
  for (const name of [recordName(domain), domain]) {
    if ((await txtAt(resolver, name)).includes(wanted)) return true;
  }
  return false;
}

async function claimOf(deps: Deps, organizationId: number, domain: string) {
  const [row] = await deps.db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.organization_id, organizationId), eq(ssoDomains.domain, domain)));
  if (!row) throw invalidField('domain', SSO_MSG.domainNotClaimed);
  return row;
}

/** Another organization holds the domain verified: this claim can never be verified. */
async function heldElsewhere(deps: Deps, organizationId: number, domain: string): Promise<boolean> {
  const rows = await deps.db
    .select({ id: ssoDomains.organization_id })
    .from(ssoDomains)
    .where(
      and(
        eq(ssoDomains.domain, domain),
        ne(ssoDomains.organization_id, organizationId),
        isNotNull(ssoDomains.verified_at),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

const isUniqueViolation = (e: unknown) => {
  for (let cur = e, i = 0; cur && i < 4; cur = (cur as { cause?: unknown }).cause, i++) {
    if ((cur as { code?: string }).code === '23505') return true;
  }
  return false;
};

async function markVerified(deps: Deps, organizationId: number, domain: string, by: 'dns' | 'admin' | null) {
  try {
    await deps.db
      .update(ssoDomains)
      .set({ verified_at: by ? new Date() : null, verified_by: by })
      .where(and(eq(ssoDomains.organization_id, organizationId), eq(ssoDomains.domain, domain)));
  } catch (e) {
    // two organizations verified the same domain at once: the partial unique index keeps one
    if (isUniqueViolation(e)) throw invalidField('domain', SSO_MSG.domainTaken);
    throw e;
  }
}

/** /check-sso-domain: the organization (or the admin for it) asks us to look up the TXT record now. */
export async function checkSsoDomain(deps: Deps, auth: AuthContext, body: z.output<typeof checkSsoDomainRequest>) {
  const org = await ssoTenant(deps, auth, body.organization_id);
  const claim = await claimOf(deps, org.id, body.domain);
  if (!claim.verified_at) {
    if (await heldElsewhere(deps, org.id, body.domain)) throw invalidField('domain', SSO_MSG.domainTaken);
    let found: boolean;
    try {
      found = await domainPublishes(deps.config, body.domain, claim.verification_token);
    } catch {
      throw invalidField('domain', SSO_MSG.domainDnsFailed);
    }
    if (!found) throw invalidField('domain', SSO_MSG.domainRecordMissing);
    await markVerified(deps, org.id, body.domain, 'dns');
  }
  return { ...(await getSsoSettings(deps, auth, org.id)), message: SSO_MSG.domainVerified };
}

/** /verify-sso-domain: the admin vouches for (or withdraws) an organization's domain by hand. */
export async function verifySsoDomain(deps: Deps, auth: AuthContext, body: z.output<typeof verifySsoDomainRequest>) {
  const org = await ssoTenant(deps, auth, body.organization_id);
  await claimOf(deps, org.id, body.domain);
  if (body.verified && (await heldElsewhere(deps, org.id, body.domain))) {
    throw invalidField('domain', SSO_MSG.domainTaken);
  }
  await markVerified(deps, org.id, body.domain, body.verified ? 'admin' : null);
  const message = body.verified ? SSO_MSG.domainMarkedVerified : SSO_MSG.domainMarkedUnverified;
  return { ...(await getSsoSettings(deps, auth, org.id)), message };
}
