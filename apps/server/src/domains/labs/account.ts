import {
  type authorizeLabAccountRequest,
  MSG,
  type registerLabAccountRequest,
  type updateLabSettingsRequest,
} from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { labAccounts } from '../../db/schema';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/auth/passwords';
import type { Deps } from '../../platform/deps';
import { invalidField, ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { managerTenant, type Tenant, tenantColumns, tenantWhere } from '../../platform/tenancy';

/**
 * The tenant's lab account (spec 02 /register-cloud-account, /authorize-cloud-account): the cloud
 * account of the old product becomes one account per provider or organization on our lab engine.
 * Its password is hashed; labs can be created once it has been authorized (signed in) once. The
 * manager who registers it has just chosen its password, so registering also authorizes it (issue
 * 41: a first VM without a second sign-in); /authorize-gc-account still signs in an account
 * registered without it (older data).
 */
export type LabAccountRow = typeof labAccounts.$inferSelect;

const accountWhere = (tenant: Tenant) => tenantWhere(labAccounts, tenant);

export async function labAccountOf(deps: Deps, tenant: Tenant): Promise<LabAccountRow | null> {
  const [row] = await deps.db.select().from(labAccounts).where(accountWhere(tenant)).limit(1);
  return row ?? null;
}

export async function registerLabAccount(
  deps: Deps,
  auth: AuthContext,
  body: z.output<typeof registerLabAccountRequest>,
) {
  const tenant = managerTenant(auth);
  if (await labAccountOf(deps, tenant)) throw invalidField('username', MSG.labAccountExists);
  const inserted = await deps.db
    .insert(labAccounts)
    .values({
      ...tenantColumns(tenant),
      username: body.username,
      email: body.email,
      first_name: body.first_name,
      last_name: body.last_name,
      password_hash: await hashPassword(body.password),
      authorized_at: deps.clock(),
    })
    .onConflictDoNothing()
    .returning({ id: labAccounts.id });
  if (inserted.length === 0) throw invalidField('username', MSG.labAccountExists);
  return { message: MSG.registerSuccess };
}

export async function authorizeLabAccount(
  deps: Deps,
  auth: AuthContext,
  body: z.output<typeof authorizeLabAccountRequest>,
) {
  const account = await labAccountOf(deps, managerTenant(auth));
  if (!account) {
    await burnPasswordCheck(body.password);
    throw new ValidationError({ username: [MSG.invalidCredentials] });
  }
  const ok =
    account.username.toLowerCase() === body.username.toLowerCase() &&
    (await verifyPassword(account.password_hash, body.password));
  if (!ok) throw new ValidationError({ username: [MSG.invalidCredentials] });
  await deps.db.update(labAccounts).set({ authorized_at: deps.clock() }).where(eq(labAccounts.id, account.id));
  return { message: MSG.labAccountAuthorized };
}

export async function checkLabAccount(deps: Deps, auth: AuthContext) {
  const account = await labAccountOf(deps, managerTenant(auth));
  return {
    exist: account ? 1 : 0,
    authorized: account?.authorized_at ? 1 : 0,
    username: account?.username ?? null,
  };
}

/** /lab-settings and /update-lab-settings: the tenant's idle stop and monthly caps. */
export async function labSettings(deps: Deps, auth: AuthContext, change?: z.output<typeof updateLabSettingsRequest>) {
  const account = await labAccountOf(deps, managerTenant(auth));
  if (!account) throw new ValidationError({ other_error: [MSG.labAccountMissing] });
  const row = change
    ? (await deps.db.update(labAccounts).set(change).where(eq(labAccounts.id, account.id)).returning())[0]!
    : account;
  return {
    idle_stop_seconds: row.idle_stop_seconds,
    cap_hours_month: row.cap_hours_month,
    cap_paise_month: row.cap_paise_month,
  };
}
