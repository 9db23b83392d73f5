import { type Role, roleForUserType, USER_TYPES } from '@trainlab/contract';
import { and, arrayContains, count, desc, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  branches,
  departments,
  organizations,
  orgMemberships,
  orgSubadminRequests,
  sections,
  trainings,
  users,
} from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { iso } from './shared';

async function countOf(deps: Deps, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await deps.db.select({ n: count() }).from(table).where(where);
  return Number(row?.n ?? 0);
}

const isSubadmin = () => arrayContains(users.roles, ['org_subadmin']);

/** /org/dashboard-data: the organization home of an organization account or sub-admin. */
export async function orgDashboard(deps: Deps, organizationId: number) {
  const [org] = await deps.db
    .select({ id: organizations.id, slug: organizations.slug, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound();
  const inOrg = eq(users.organization_id, organizationId);
  const [subAdmins, pending, orgUsers, depts, branchCount, sectionCount] = await Promise.all([
    countOf(deps, users, and(inOrg, isSubadmin(), eq(users.is_approved, 1))),
    countOf(deps, users, and(inOrg, isSubadmin(), eq(users.is_approved, 0))),
    // every account of the organization (its own, sub-admins, members): the people Latest users lists,
    // so the tile and the list agree (the tile counted members only: 1 beside a list of 3)
    countOf(deps, users, inOrg),
    countOf(deps, departments, eq(departments.organization_id, organizationId)),
    countOf(deps, branches, eq(branches.organization_id, organizationId)),
    countOf(deps, sections, eq(sections.organization_id, organizationId)),
  ]);
  const latest = await deps.db.select().from(users).where(inOrg).orderBy(desc(users.id)).limit(10);
  return {
    organization: org,
    counts: {
      sub_admins: subAdmins,
      pending_sub_admins: pending,
      organization_users: orgUsers,
      departments: depts,
      branches: branchCount,
      sections: sectionCount,
    },
    list: latest.map((u) => ({
      id: u.id,
      slug: u.slug,
      name: `${u.first_name} ${u.last_name}`.trim(),
      email: u.email,
      role: (u.roles[0] ?? 'organization_user') as Role,
      created_at: iso(u.created_at),
    })),
  };
}

/** /ou/dashboard-data: where an organization user sits. */
export async function ouDashboard(deps: Deps, auth: AuthContext) {
  const [org] = auth.user.organization_id
    ? await deps.db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, auth.user.organization_id))
    : [];
  const [m] = await deps.db.select().from(orgMemberships).where(eq(orgMemberships.user_id, auth.user.id));
  const nameOf = async (
    table: typeof branches | typeof departments | typeof sections,
    id: number | null | undefined,
  ) => {
    if (!id) return null;
    const [row] = await deps.db.select({ name: table.name }).from(table).where(eq(table.id, id));
    return row?.name ?? null;
  };
  return {
    success: {
      organization: org?.name ?? null,
      branch: await nameOf(branches, m?.branch_id),
      department: await nameOf(departments, m?.department_id),
      section: await nameOf(sections, m?.section_id),
    },
  };
}

/** /admin/dashboard-data: what waits for a decision, and platform totals. */
export async function adminDashboard(deps: Deps) {
  const [waitingOrgs, waitingProviders, waitingOrgAccounts, waitingSubadmins, orgTotal, providerTotal] =
    await Promise.all([
      countOf(deps, organizations, eq(organizations.is_approved, 0)),
      countOf(deps, users, and(eq(users.user_type, USER_TYPES.provider), eq(users.is_approved, 0))),
      countOf(deps, users, and(eq(users.user_type, USER_TYPES.organization), eq(users.is_approved, 0))),
      countOf(deps, orgSubadminRequests, eq(orgSubadminRequests.status, 0)),
      countOf(deps, organizations),
      countOf(deps, users, and(eq(users.user_type, USER_TYPES.provider), eq(users.is_approved, 1))),
    ]);
  const byType = await deps.db.select({ type: users.user_type, n: count() }).from(users).groupBy(users.user_type);
  const byRole = Object.fromEntries(Object.keys(USER_TYPES).map((r) => [r, 0])) as Record<Role, number>;
  for (const row of byType) {
    const role = roleForUserType(row.type);
    if (role) byRole[role] += Number(row.n);
  }
  return {
    pending: {
      organizations: waitingOrgs,
      providers: waitingProviders,
      organization_accounts: waitingOrgAccounts,
      sub_admins: waitingSubadmins,
    },
    totals: {
      organizations: orgTotal,
      providers: providerTotal,
      users: byRole,
      trainings: await countOf(deps, trainings),
    },
  };
}
