import type { Deps } from '../../platform/deps';

/** The addresses our side shows an organization's IT administrator (docs/sso.md). */
export function serviceProviderUrls(deps: Deps, orgSlug: string) {
  const base = `${deps.config.PUBLIC_URL}/sso`;
  const slug = encodeURIComponent(orgSlug);
  return {
    entity_id: `${base}/saml/${slug}/metadata`,
    metadata_url: `${base}/saml/${slug}/metadata`,
    acs_url: `${base}/saml/${slug}/acs`,
    slo_url: `${base}/saml/${slug}/slo`,
    redirect_uri: `${base}/oidc/${slug}/callback`,
  };
}

/** The web page every browser route ends on. */
export const completePage = (deps: Deps, query: { code?: string; error?: string; logged_out?: string }) =>
  `${deps.config.PUBLIC_URL}/sso/complete?${new URLSearchParams(query as Record<string, string>).toString()}`;
