import { type managedUsersRequest, ORG_MSG, type Role, type updateUserProfileRequest } from '@trainlab/contract';
import { and, arrayContains, eq, not, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { pageWindow } from '../../platform/http/paging';
import { managedAccountsWhere, tenantsOf } from '../../platform/tenancy';
import { pageOfPeople } from './people-page';
import { emailTaken, isUniqueViolation } from './shared';

type UserRow = typeof users.$inferSelect;

/**
 * Which accounts a caller manages (the one ownership rule of /get-all-lp-users, /get-user-details
 * and /update-user-profile):
 * - admin: every account that is not an admin;
 * - provider: its provider_user accounts (users.provider_id = the provider);
 * - organization and org_subadmin: the organization_user and org_subadmin accounts of its organization.
 * An account holding several roles sees the union. Anything outside answers 404.
 */
export function managedScope(caller: UserRow): SQL | null {
  const roles = caller.roles;
  if (roles.includes('admin')) return not(arrayContains(users.roles, ['admin']));
  // the tenants' rule (platform/tenancy.ts): a provider's own, an organization's people
  const parts = tenantsOf(caller).map(managedAccountsWhere);
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0]! : or(...parts)!;
}

const toManagedUser = (u: UserRow) => ({
  id: u.id,
  slug: u.slug,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  mobile_no: u.mobile_no,
  roles: u.roles as Role[],
  status: u.status,
});

export async function listManagedUsers(deps: Deps, auth: AuthContext, q: z.output<typeof managedUsersRequest>) {
  const scope = managedScope(auth.user);
  if (!scope) {
    const { page, per_page } = pageWindow(q);
    return { list: [], total: 0, page, per_page };
  }
  return pageOfPeople(deps, scope, q, toManagedUser);
}

async function findManaged(deps: Deps, auth: AuthContext, slug: string): Promise<UserRow> {
  const scope = managedScope(auth.user);
  if (!scope) throw notFound();
  const [row] = await deps.db
    .select()
    .from(users)
    .where(and(eq(users.slug, slug), scope));
  if (!row) throw notFound();
  return row;
}

export async function managedUserDetails(deps: Deps, auth: AuthContext, slug: string) {
  return { success: toManagedUser(await findManaged(deps, auth, slug)) };
}

export async function updateManagedUser(
  deps: Deps,
  auth: AuthContext,
  body: z.output<typeof updateUserProfileRequest>,
) {
  const target = await findManaged(deps, auth, body.slug);
  await updateAccount(deps, target.id, body);
  return { message: ORG_MSG.recordUpdated, slug: target.slug };
}

/** Name, e-mail and mobile of an account; the e-mail stays unique (case-insensitive). */
export async function updateAccount(
  deps: Deps,
  userId: number,
  body: { first_name: string; last_name: string; email: string; mobile_no: string },
): Promise<void> {
  if (await emailTaken(deps.db, body.email, userId)) throw invalidField('email', ORG_MSG.emailTaken);
  try {
    await deps.db
      .update(users)
      .set({
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        mobile_no: body.mobile_no,
        updated_at: new Date(),
      })
      .where(eq(users.id, userId));
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('email', ORG_MSG.emailTaken);
    throw e;
  }
}
