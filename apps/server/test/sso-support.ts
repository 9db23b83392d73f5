import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../src/db/schema';
import type { TestApp } from './helpers';
import { tokenFor } from './org-fixtures';

export const domainOf = (stem: string) => `${stem}-${randomBytes(4).toString('hex')}.test`;

/** Posts a SAML response to our ACS as the browser does; answers where it was sent next. */
export async function postAcs(t: TestApp, slug: string, samlResponse: string, relayState = '') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/sso/saml/${slug}/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
  });
  return landing(res.statusCode, res.headers.location);
}

/** Follows our OIDC redirect URI as the browser does. */
export async function getCallback(t: TestApp, callbackUrl: string) {
  const u = new URL(callbackUrl);
  const res = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
  return landing(res.statusCode, res.headers.location);
}

function landing(status: number, location: unknown) {
  expect(status).toBe(303);
  const url = new URL(String(location));
  expect(url.origin + url.pathname).toBe('http://app.test/sso/complete');
  return { code: url.searchParams.get('code'), error: url.searchParams.get('error') };
}

export async function accountsWithEmail(t: TestApp, email: string): Promise<number> {
  const rows = await t.deps.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return rows.length;
}

/**
 * Saves SSO settings and, when they are saved, marks their domains verified as the admin does by
 * hand: only proved domains route anyone to the provider (test/sso-domain-proof.test.ts covers the
 * proof itself).
 */
export async function saveSso(t: TestApp, body: unknown, token?: string) {
  const res = await t.post('save-sso-settings', body, token);
  if (res.status !== 200) return res;
  const admin = await tokenFor(t, 'admin');
  for (const domain of res.body.domains as string[]) {
    const verified = await t.post(
      'verify-sso-domain',
      { organization_id: res.body.organization_id, domain, verified: true },
      admin,
    );
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  }
  return res;
}
