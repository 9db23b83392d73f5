import { LEARNER_ROLES, MANAGER_ROLES, ORG_MSG, type Role } from '@trainlab/contract';
import { and, arrayContains, arrayOverlaps, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';
import { forbidden } from './errors';
import type { AuthContext, UserRow } from './http/auth-context';

/**
 * Tenancy: the one rule of who may touch which tenant's records (docs/ARCHITECTURE.md, "Tenancy: one
 * module"). Every cross-tenant bug found so far was a copy of this rule that drifted, so every domain
 * (and the audit writer) asks this file instead of writing the roles again.
 *
 * - A tenant is a learning provider's account (records carry `owner_user_id`) or an organization
 *   (records carry `organization_id`), shared by the organization account and its sub-admins.
 * - The provider role acts for the provider's own tenant; the organization roles act for the
 *   caller's organization (none without an organization).
 * - A tenant's own learners are a provider's provider_user accounts (`users.provider_id`) and an
 *   organization's organization_user accounts (`users.organization_id`).
 * A record of another tenant answers 404 in the services, exactly like one that does not exist.
 */

export type Tenant = { kind: 'provider'; ownerId: number } | { kind: 'organization'; organizationId: number };

/** The role that acts for a provider's own tenant: the provider account itself. */
export const PROVIDER_ROLE = 'provider' satisfies Role;
/** The roles that act for an organization's tenant: the organization account and its sub-admins. */
export const ORGANIZATION_ROLES = ['organization', 'org_subadmin'] as const satisfies readonly Role[];
/** The learner accounts a tenant owns, by the tenant's kind. */
export const TENANT_LEARNER_ROLE = {
  provider: 'provider_user',
  organization: 'organization_user',
} as const satisfies Record<Tenant['kind'], Role>;
/** The accounts an organization's managers manage: its learners and its sub-admins. */
export const ORGANIZATION_MANAGED_ROLES = [
  TENANT_LEARNER_ROLE.organization,
  'org_subadmin',
] as const satisfies readonly Role[];

/** Whether one role (an audited actor's, say) acts for an organization. */
export const isOrganizationRole = (role: string | null) =>
  role !== null && (ORGANIZATION_ROLES as readonly string[]).includes(role);
export const actsForProvider = (roles: readonly string[]) => roles.includes(PROVIDER_ROLE);
export const actsForOrganization = (roles: readonly string[]) => ORGANIZATION_ROLES.some((r) => roles.includes(r));
/** A provider, an organization or an org_subadmin: someone who manages a tenant's records. */
export const isManager = (auth: AuthContext) => MANAGER_ROLES.some((r) => auth.user.roles.includes(r));
export const isLearner = (roles: readonly string[]) => LEARNER_ROLES.some((r) => roles.includes(r));

type Caller = Pick<UserRow, 'id' | 'roles' | 'organization_id'>;

/**
 * The tenant an account acts for: a provider account its own (the provider role wins on an account
 * holding both), an organization role its organization; null for anyone else and for an
 * organization role not linked to an organization.
 */
export function tenantOf(user: Caller): Tenant | null {
  if (actsForProvider(user.roles)) return { kind: 'provider', ownerId: user.id };
  if (actsForOrganization(user.roles) && user.organization_id) {
    return { kind: 'organization', organizationId: user.organization_id };
  }
  return null;
}

/** The tenant a manager acts for; 403 for anyone else (saying so to an organization role without an organization). */
export function managerTenant(auth: AuthContext): Tenant {
  const tenant = tenantOf(auth.user);
  if (tenant) return tenant;
  if (actsForOrganization(auth.user.roles)) throw forbidden(ORG_MSG.noOrganization);
  throw forbidden();
}

/** The two columns that tie a table's row to its tenant: exactly one of them is set. */
export interface TenantColumns {
  owner_user_id: PgColumn;
  organization_id: PgColumn;
}
/** A row's tenant columns. */
export interface TenantOwned {
  owner_user_id: number | null;
  organization_id: number | null;
}

/** The rows of `table` that belong to `tenant`. */
export const tenantWhere = (table: TenantColumns, tenant: Tenant): SQL =>
  tenant.kind === 'provider'
    ? eq(table.owner_user_id, tenant.ownerId)
    : eq(table.organization_id, tenant.organizationId);

/** The values that tie a new row to its tenant. */
export const tenantColumns = (tenant: Tenant) =>
  tenant.kind === 'provider'
    ? { owner_user_id: tenant.ownerId, organization_id: null }
    : { owner_user_id: null, organization_id: tenant.organizationId };

/** The tenant a row belongs to; null for a row that names none. */
export const recordTenant = (row: TenantOwned): Tenant | null =>
  row.owner_user_id
    ? { kind: 'provider', ownerId: row.owner_user_id }
    : row.organization_id
      ? { kind: 'organization', organizationId: row.organization_id }
      : null;

/** Whether a row belongs to `tenant`. */
export const ownedBy = (tenant: Tenant, row: TenantOwned): boolean =>
  tenant.kind === 'provider' ? row.owner_user_id === tenant.ownerId : row.organization_id === tenant.organizationId;

/** Whether a row belongs to the caller's tenant; 403 (like managerTenant) for a caller with none. */
export const managedBy = (auth: AuthContext, row: TenantOwned): boolean => ownedBy(managerTenant(auth), row);

/** The learner accounts `tenant` owns (a provider's provider_user accounts, an organization's organization_user accounts). */
export const tenantLearnersWhere = (tenant: Tenant): SQL =>
  tenant.kind === 'provider'
    ? and(eq(users.provider_id, tenant.ownerId), arrayContains(users.roles, [TENANT_LEARNER_ROLE.provider]))!
    : and(
        eq(users.organization_id, tenant.organizationId),
        arrayContains(users.roles, [TENANT_LEARNER_ROLE.organization]),
      )!;

/** Whether an account is one of `tenant`'s own learners (the same rule as tenantLearnersWhere). */
export const isTenantLearner = (tenant: Tenant, account: Pick<UserRow, 'roles' | 'provider_id' | 'organization_id'>) =>
  tenant.kind === 'provider'
    ? account.roles.includes(TENANT_LEARNER_ROLE.provider) && account.provider_id === tenant.ownerId
    : account.roles.includes(TENANT_LEARNER_ROLE.organization) && account.organization_id === tenant.organizationId;

/**
 * The accounts `tenant`'s managers manage: a provider's provider_user accounts; an organization's
 * organization_user and org_subadmin accounts.
 */
export const managedAccountsWhere = (tenant: Tenant): SQL =>
  tenant.kind === 'provider'
    ? tenantLearnersWhere(tenant)
    : and(
        eq(users.organization_id, tenant.organizationId),
        arrayOverlaps(users.roles, [...ORGANIZATION_MANAGED_ROLES]),
      )!;

/**
 * Every tenant an account acts for, for rules that take the union over an account holding several
 * roles (a provider that is also an organization's sub-admin sees both): unlike tenantOf, which picks one.
 */
export function tenantsOf(user: Caller): Tenant[] {
  const out: Tenant[] = [];
  if (actsForProvider(user.roles)) out.push({ kind: 'provider', ownerId: user.id });
  if (actsForOrganization(user.roles) && user.organization_id) {
    out.push({ kind: 'organization', organizationId: user.organization_id });
  }
  return out;
}
