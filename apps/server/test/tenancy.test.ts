import { MSG, ORG_MSG, ROLES, type Role } from '@trainlab/contract';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { certificateSettings, courses, payments, trainings, users, vms } from '../src/db/schema';
import { AppError } from '../src/platform/errors';
import type { AuthContext, UserRow } from '../src/platform/http/auth-context';
import {
  isManager,
  isTenantLearner,
  managedAccountsWhere,
  managedBy,
  managerTenant,
  ownedBy,
  recordTenant,
  type Tenant,
  type TenantOwned,
  tenantColumns,
  tenantLearnersWhere,
  tenantOf,
  tenantsOf,
  tenantWhere,
} from '../src/platform/tenancy';

/**
 * The tenancy rule on its own (platform/tenancy.ts): every role against records of its own tenant
 * and of another, with the attacker's cases the cross-tenant bugs were made of. The calls that use
 * it are covered by the access snapshot (every call as every role) and the domains' tenant tests.
 */

// Provider A is account 10, provider B account 20; organization A is 1, organization B is 2.
const PROVIDER_A = 10;
const PROVIDER_B = 20;
const ORG_A = 1;
const ORG_B = 2;

let nextId = 100;
function account(
  roles: Role[],
  links: { organization_id?: number | null; provider_id?: number | null; id?: number } = {},
) {
  const user: Pick<UserRow, 'id' | 'roles' | 'organization_id' | 'provider_id'> = {
    id: links.id ?? nextId++,
    roles,
    organization_id: links.organization_id ?? null,
    provider_id: links.provider_id ?? null,
  };
  // the rule reads only these fields of an account
  return user as UserRow;
}
const as = (user: UserRow): AuthContext => ({ user, sessionId: 1, token: 't' });

const providerA = as(account(['provider'], { id: PROVIDER_A }));
const providerB = as(account(['provider'], { id: PROVIDER_B }));
const orgA = as(account(['organization'], { organization_id: ORG_A }));
const subadminA = as(account(['org_subadmin'], { organization_id: ORG_A }));
const subadminB = as(account(['org_subadmin'], { organization_id: ORG_B }));
const providerUserA = as(account(['provider_user'], { provider_id: PROVIDER_A }));
const orgUserA = as(account(['organization_user'], { organization_id: ORG_A }));

// records of each tenant (a training, a course, a lab, a bill: every table ties them the same way)
const ofProviderA: TenantOwned = { owner_user_id: PROVIDER_A, organization_id: null };
const ofProviderB: TenantOwned = { owner_user_id: PROVIDER_B, organization_id: null };
const ofOrgA: TenantOwned = { owner_user_id: null, organization_id: ORG_A };
const ofOrgB: TenantOwned = { owner_user_id: null, organization_id: ORG_B };

const dialect = new PgDialect();
const render = (where: SQL) => dialect.sqlToQuery(where);

/** What a call throws: its status and message. */
function thrown(f: () => unknown): { status: number; message: string } | null {
  try {
    f();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return { status: (e as AppError).status, message: (e as AppError).message };
  }
}

describe('the tenant a caller acts for', () => {
  it('a provider acts for its own account, an organization and its sub-admins for the organization', () => {
    expect(managerTenant(providerA)).toEqual({ kind: 'provider', ownerId: PROVIDER_A });
    expect(managerTenant(orgA)).toEqual({ kind: 'organization', organizationId: ORG_A });
    expect(managerTenant(subadminA)).toEqual({ kind: 'organization', organizationId: ORG_A });
    expect(managerTenant(subadminB)).toEqual({ kind: 'organization', organizationId: ORG_B });
  });

  it('only provider, organization and org_subadmin are managers; every other role has no tenant (403)', () => {
    const managers = ROLES.filter((r) =>
      isManager(as(account([r], { organization_id: ORG_A, provider_id: PROVIDER_A }))),
    );
    expect(managers).toEqual(['provider', 'organization', 'org_subadmin']);
    for (const role of ['user', 'provider_user', 'organization_user', 'trainer', 'admin'] as Role[]) {
      // linked to a provider and an organization, and still nobody's manager
      const caller = as(account([role], { organization_id: ORG_A, provider_id: PROVIDER_A }));
      expect(tenantOf(caller.user), role).toBeNull();
      expect(tenantsOf(caller.user), role).toEqual([]);
      expect(
        thrown(() => managerTenant(caller)),
        role,
      ).toEqual({ status: 403, message: MSG.forbidden });
    }
  });

  it('an organization role without an organization has no tenant: 403 saying so', () => {
    for (const role of ['organization', 'org_subadmin'] as Role[]) {
      const caller = as(account([role]));
      expect(tenantOf(caller.user)).toBeNull();
      expect(thrown(() => managerTenant(caller))).toEqual({ status: 403, message: ORG_MSG.noOrganization });
    }
  });

  it('an account holding both acts for its provider tenant, and reaches both where the rule takes the union', () => {
    const both = account(['provider', 'org_subadmin'], { id: 30, organization_id: ORG_B });
    expect(managerTenant(as(both))).toEqual({ kind: 'provider', ownerId: 30 });
    expect(tenantsOf(both)).toEqual([
      { kind: 'provider', ownerId: 30 },
      { kind: 'organization', organizationId: ORG_B },
    ]);
  });
});

describe('whose records a caller touches', () => {
  const cases: [string, AuthContext, TenantOwned, boolean][] = [
    ['provider A, its own record', providerA, ofProviderA, true],
    ['provider A, provider B’s record', providerA, ofProviderB, false],
    ['provider B, provider A’s record', providerB, ofProviderA, false],
    ['provider A, organization A’s record', providerA, ofOrgA, false],
    ['organization A, its own record', orgA, ofOrgA, true],
    ['organization A, organization B’s record', orgA, ofOrgB, false],
    ['organization A, provider A’s record', orgA, ofProviderA, false],
    ['org_subadmin of A, organization A’s record', subadminA, ofOrgA, true],
    ['org_subadmin of A, organization B’s record', subadminA, ofOrgB, false],
    ['org_subadmin of B, organization A’s record', subadminB, ofOrgA, false],
  ];
  it.each(cases)('%s', (_, caller, record, mine) => {
    expect(managedBy(caller, record)).toBe(mine);
    expect(ownedBy(managerTenant(caller), record)).toBe(mine);
  });

  it('another tenant’s id in the caller’s own kind of record is not the caller’s', () => {
    // an organization record whose organization id is provider A's account id: ids of the two kinds never mix
    expect(managedBy(providerA, { owner_user_id: null, organization_id: PROVIDER_A })).toBe(false);
    expect(managedBy(orgA, { owner_user_id: ORG_A, organization_id: null })).toBe(false);
  });

  it('a learner of provider A manages no training, of provider A or B: 403 before any record is read', () => {
    for (const record of [ofProviderA, ofProviderB]) {
      expect(isManager(providerUserA)).toBe(false);
      expect(thrown(() => managedBy(providerUserA, record))).toEqual({ status: 403, message: MSG.forbidden });
    }
    expect(thrown(() => managedBy(orgUserA, ofOrgA))).toEqual({ status: 403, message: MSG.forbidden });
  });

  it('a record names its tenant by the column that is set', () => {
    expect(recordTenant(ofProviderA)).toEqual({ kind: 'provider', ownerId: PROVIDER_A });
    expect(recordTenant(ofOrgB)).toEqual({ kind: 'organization', organizationId: ORG_B });
    expect(recordTenant({ owner_user_id: null, organization_id: null })).toBeNull();
  });
});

describe('the where-clauses', () => {
  const providerTenant: Tenant = { kind: 'provider', ownerId: PROVIDER_A };
  const orgTenant: Tenant = { kind: 'organization', organizationId: ORG_B };

  it('select a tenant’s rows by the one column of its kind, in every table', () => {
    for (const table of [trainings, courses, vms, payments, certificateSettings]) {
      expect(render(tenantWhere(table, providerTenant)).params).toEqual([PROVIDER_A]);
      expect(render(tenantWhere(table, providerTenant)).sql).toContain('"owner_user_id" = $1');
      expect(render(tenantWhere(table, orgTenant)).params).toEqual([ORG_B]);
      expect(render(tenantWhere(table, orgTenant)).sql).toContain('"organization_id" = $1');
    }
  });

  it('tie a new row to its tenant and to no other', () => {
    expect(tenantColumns(providerTenant)).toEqual({ owner_user_id: PROVIDER_A, organization_id: null });
    expect(tenantColumns(orgTenant)).toEqual({ owner_user_id: null, organization_id: ORG_B });
  });

  it('a tenant’s learners: a provider’s provider_user accounts, an organization’s organization_user accounts', () => {
    const p = render(tenantLearnersWhere(providerTenant));
    expect(p.sql).toContain(`"${users.provider_id.name}" = $1`);
    expect(p.params).toEqual([PROVIDER_A, '{"provider_user"}']);
    const o = render(tenantLearnersWhere(orgTenant));
    expect(o.sql).toContain(`"${users.organization_id.name}" = $1`);
    expect(o.params).toEqual([ORG_B, '{"organization_user"}']);
  });

  it('the accounts an organization manages add its sub-admins; a provider’s stay its provider users', () => {
    expect(render(managedAccountsWhere(orgTenant)).params).toEqual([ORG_B, '{"organization_user","org_subadmin"}']);
    expect(render(managedAccountsWhere(providerTenant))).toEqual(render(tenantLearnersWhere(providerTenant)));
  });
});

describe('whose learner an account is', () => {
  const providerTenantA: Tenant = { kind: 'provider', ownerId: PROVIDER_A };
  const providerTenantB: Tenant = { kind: 'provider', ownerId: PROVIDER_B };
  const orgTenantA: Tenant = { kind: 'organization', organizationId: ORG_A };
  const orgTenantB: Tenant = { kind: 'organization', organizationId: ORG_B };

  it('a provider user is its provider’s learner, not another provider’s nor an organization’s', () => {
    expect(isTenantLearner(providerTenantA, providerUserA.user)).toBe(true);
    expect(isTenantLearner(providerTenantB, providerUserA.user)).toBe(false);
    expect(isTenantLearner(orgTenantA, providerUserA.user)).toBe(false);
  });

  it('an organization user is its organization’s learner, not another organization’s', () => {
    expect(isTenantLearner(orgTenantA, orgUserA.user)).toBe(true);
    expect(isTenantLearner(orgTenantB, orgUserA.user)).toBe(false);
    expect(isTenantLearner(providerTenantA, orgUserA.user)).toBe(false);
  });

  it('a manager, a sub-admin or a self-registered user linked to the tenant is no learner of it', () => {
    expect(isTenantLearner(orgTenantA, subadminA.user)).toBe(false);
    expect(isTenantLearner(orgTenantA, orgA.user)).toBe(false);
    expect(isTenantLearner(providerTenantA, account(['user'], { provider_id: PROVIDER_A }))).toBe(false);
  });
});
