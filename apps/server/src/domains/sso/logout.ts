import { eq } from 'drizzle-orm';
import { organizations, ssoSessions, ssoSettings } from '../../db/schema';
import type { Deps } from '../../platform/deps';

/**
 * Where the browser goes after our logout to end the identity provider's session too (single
 * logout), or null. Our own session ends whatever this answers; a provider that cannot be reached
 * only costs the single logout.
 */
export async function ssoLogoutUrl(deps: Deps, sessionId: number, log: (msg: string) => void): Promise<string | null> {
  const [s] = await deps.db.select().from(ssoSessions).where(eq(ssoSessions.session_id, sessionId));
  if (!s?.organization_id) return null;
  const [target] = await deps.db
    .select({ org: organizations, row: ssoSettings })
    .from(organizations)
    .innerJoin(ssoSettings, eq(ssoSettings.organization_id, organizations.id))
    .where(eq(organizations.id, s.organization_id));
  if (!target || target.row.enabled !== 1 || target.row.protocol !== s.protocol) return null;
  try {
    if (s.protocol === 'oidc') {
      return s.id_token_enc
        ? await (await import('./oidc')).oidcLogoutUrl(deps, target, deps.cipher.decrypt(s.id_token_enc))
        : null;
    }
    return s.name_id
      ? await (await import('./saml')).samlLogoutUrl(deps, target, {
          nameId: s.name_id,
          nameIdFormat: s.name_id_format,
          sessionIndex: s.session_index,
        })
      : null;
  } catch (e) {
    log(`single logout of organization ${target.org.id} not possible: ${(e as Error).message}`);
    return null;
  }
}
