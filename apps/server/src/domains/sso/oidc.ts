import { createHash } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import * as client from 'openid-client';
import { ssoRequests } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { guardedFetch, outboundRefusal } from '../../platform/http/outbound-fetch';
import { serviceProviderUrls } from './endpoints';
import { CLOCK_SKEW_MS, claimAssertion, REQUEST_TTL_MS, SsoError, type SsoIdentity, type SsoTarget } from './sign-in';

export const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Discovers an OpenID provider. Every request openid-client makes (discovery, keys, tokens) goes
 * through the outbound guard; plain http is allowed only on this machine (which the guard still
 * refuses unless OUTBOUND_ALLOW_PRIVATE names it).
 */
export async function discoverIssuer(
  deps: Deps,
  issuerUrl: string,
  clientId: string,
  clientSecret: string,
): Promise<client.Configuration> {
  const issuer = new URL(issuerUrl);
  const fetchGuarded = guardedFetch(deps.config) as client.CustomFetch;
  const config = await client.discovery(
    issuer,
    clientId,
    { client_secret: clientSecret, [client.clockTolerance]: CLOCK_SKEW_MS / 1000 },
    undefined,
    {
      ...(issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname)
        ? { execute: [client.allowInsecureRequests] }
        : {}),
      [client.customFetch]: fetchGuarded,
      timeout: 10,
    },
  );
  config[client.customFetch] = fetchGuarded;
  config.timeout = 10;
  return config;
}

/** The organization's OpenID provider, discovered for a sign-in. */
async function configFor(deps: Deps, target: SsoTarget): Promise<client.Configuration> {
  const { row, org } = target;
  if (!row.oidc_issuer || !row.oidc_client_id || !row.oidc_client_secret_enc) {
    throw new SsoError('misconfigured', `organization ${org.id} has no OIDC issuer, client id or secret`);
  }
  try {
    return await discoverIssuer(
      deps,
      row.oidc_issuer,
      row.oidc_client_id,
      deps.cipher.decrypt(row.oidc_client_secret_enc),
    );
  } catch (e) {
    const refused = outboundRefusal(e);
    const detail = refused ? `${refused.message} (${refused.detail})` : (e as Error).message;
    throw new SsoError('misconfigured', `discovery of ${row.oidc_issuer} failed: ${detail}`);
  }
}

export async function oidcStart(deps: Deps, target: SsoTarget, isPrevious: boolean): Promise<string> {
  const config = await configFor(deps, target);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await deps.db.insert(ssoRequests).values({
    request_key: `oidc:${state}`,
    organization_id: target.org.id,
    protocol: 'oidc',
    nonce,
    code_verifier: verifier,
    is_previous: isPrevious ? 1 : 0,
    expires_at: new Date(Date.now() + REQUEST_TTL_MS),
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: serviceProviderUrls(deps, target.org.slug).redirect_uri,
    scope: `openid email profile${target.row.subadmin_group ? ' groups' : ''}`,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return url.href;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The redirect URI: exchanges the code (PKCE, state, nonce checked) and reads the ID token. */
export async function oidcAnswer(
  deps: Deps,
  target: SsoTarget,
  query: Record<string, string>,
): Promise<{ identity: SsoIdentity; isPrevious: boolean }> {
  const state = query.state ?? '';
  // the state is single-use: claimed (deleted) before anything else
  const [stored] = state
    ? await deps.db
        .delete(ssoRequests)
        .where(
          and(
            eq(ssoRequests.request_key, `oidc:${state}`),
            eq(ssoRequests.organization_id, target.org.id),
            gt(ssoRequests.expires_at, new Date()),
          ),
        )
        .returning()
    : [];
  if (!stored) throw new SsoError('expired', 'unknown, used or expired state');
  if (query.error) throw new SsoError('refused', `provider answered ${query.error}: ${query.error_description ?? ''}`);
  const config = await configFor(deps, target);
  const callback = new URL(serviceProviderUrls(deps, target.org.slug).redirect_uri);
  for (const [k, v] of Object.entries(query)) callback.searchParams.set(k, v);
  let claims: client.IDToken | undefined;
  let idToken = '';
  try {
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: stored.code_verifier ?? '',
      expectedState: state,
      expectedNonce: stored.nonce ?? '',
      idTokenExpected: true,
    });
    claims = tokens.claims();
    idToken = tokens.id_token ?? '';
  } catch (e) {
    throw new SsoError('invalid_answer', `token exchange failed: ${(e as Error).message}`);
  }
  if (!claims) throw new SsoError('invalid_answer', 'no ID token');
  // an unverified e-mail could be anyone's: only an explicit true counts, unless the organization says
  // its provider never sends the claim (then only its absence is accepted)
  const verified =
    claims.email_verified === true ||
    (claims.email_verified === undefined && target.row.oidc_email_verified_not_sent === 1);
  if (!verified) {
    throw new SsoError(
      'refused',
      `the provider did not verify the e-mail (email_verified: ${String(claims.email_verified)})`,
    );
  }
  const key = createHash('sha256').update(idToken).digest('hex');
  await claimAssertion(deps, `oidc:${target.org.id}:${key}`, new Date((claims.exp + 3600) * 1000));
  const groupsClaim = claims[target.row.group_attribute];
  const name = text(claims.name).trim();
  return {
    identity: {
      email: text(claims.email),
      firstName: text(claims.given_name) || name.split(' ')[0] || '',
      lastName: text(claims.family_name) || name.split(' ').slice(1).join(' '),
      groups: Array.isArray(groupsClaim) ? groupsClaim.filter((g): g is string => typeof g === 'string') : [],
      logout: { idToken },
    },
    isPrevious: stored.is_previous === 1,
  };
}

/** RP-initiated logout: the provider's end-session URL, when it publishes one; back to /login after. */
export async function oidcLogoutUrl(deps: Deps, target: SsoTarget, idToken: string): Promise<string | null> {
  const config = await configFor(deps, target);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, {
    id_token_hint: idToken,
    post_logout_redirect_uri: `${deps.config.PUBLIC_URL}/login`,
  }).href;
}
