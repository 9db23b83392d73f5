import { randomBytes } from 'node:crypto';
import type { Role } from '@trainlab/contract';
import { expect } from 'vitest';
import type { organizations } from '../src/db/schema';
import { rolesExcept, type TestApp } from './helpers';

export const uniqueEmail = (stem = 'person') => `${stem}-${randomBytes(5).toString('hex')}@example.test`;

export const memberBody = (over: Record<string, unknown> = {}) => ({
  first_name: 'Meera',
  last_name: 'Nair',
  email: uniqueEmail('member'),
  mobile_no: '9876543210',
  ...over,
});

/** An approved, active organization with a signed-in organization account. */
export async function orgWithOwner(t: TestApp, org: Partial<typeof organizations.$inferInsert> = {}) {
  const organization = await t.createOrganization(org);
  const owner = await t.loginAs({ role: 'organization', organization_id: organization.id });
  return { organization, token: owner.token, owner: owner.user };
}

/** The set-password link of the last mail to `email`, used to choose a password; returns that password. */
export async function setPasswordFromMail(t: TestApp, email: string, password = 'Chosen#Pass1'): Promise<string> {
  const mails = (await t.outbox()).filter((m) => m.to === email);
  const match = /http:\/\/app\.test\/reset-password\/([A-Za-z0-9_-]+)/.exec(
    mails.filter((m) => m.text.includes('/reset-password/')).at(-1)?.text ?? '',
  );
  expect(match, `a set-password link mailed to ${email}`).not.toBeNull();
  const res = await t.post('reset-password', { i_t: match![1], password, password_confirmation: password });
  expect(res.status).toBe(200);
  return password;
}

/** One signed-in account per role, made once per test app (sign-in hashes are slow to verify). */
const tokenCache = new WeakMap<TestApp, Map<Role, string>>();
export async function tokenFor(t: TestApp, role: Role): Promise<string> {
  let cache = tokenCache.get(t);
  if (!cache) {
    cache = new Map();
    tokenCache.set(t, cache);
  }
  let token = cache.get(role);
  if (!token) {
    const organization_id = ORG_ROLES.includes(role) ? (await t.createOrganization()).id : null;
    token = (await t.loginAs({ role, organization_id })).token;
    cache.set(role, token);
  }
  return token;
}
const ORG_ROLES: Role[] = ['organization', 'org_subadmin', 'organization_user'];

/** 401 without a token and 403 for every role outside `allowed`, for each path. */
export async function expectGuarded(t: TestApp, paths: string[], allowed: Role[], body: unknown = {}) {
  for (const path of paths) {
    expect((await t.post(path, body)).status, `${path} without a token`).toBe(401);
    for (const role of rolesExcept(...allowed)) {
      const res = await t.post(path, body, await tokenFor(t, role));
      expect(res.status, `${path} as ${role}`).toBe(403);
    }
  }
}
