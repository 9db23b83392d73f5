import { API, MSG } from '@trainlab/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { linesOfBusiness, organizations, orgSubadminRequests, users } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { adminDashboard, orgDashboard, ouDashboard } from './dashboards';
import { listManagedUsers, managedUserDetails, updateManagedUser } from './managed-users';
import { addOrgSubadmin, addOrgUser, decideSubadminRequest, subadminRequests } from './members';
import { APPROVED, listOrganizations, registerOrganization, setApproval, setStatus, WAITING } from './organizations';
import { childUsersList, decideProviderRequest, usersList } from './provider-requests';
import { callerOrganizationId } from './shared';
import { addUnit, listUnits } from './structure';
import { getTrainer, listTrainers, registerTrainer, updateTrainer } from './trainers';

export function organizationRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getLineOfBusiness, async () => ({
    list: await deps.db
      .select({ id: linesOfBusiness.id, name: linesOfBusiness.name })
      .from(linesOfBusiness)
      .orderBy(asc(linesOfBusiness.name)),
  }));

  defineCall(
    app,
    deps,
    API.addLineOfBusiness,
    audited(API.addLineOfBusiness, { type: 'line-of-business' }, async ({ body }) => {
      const [existing] = await deps.db
        .select({ id: linesOfBusiness.id })
        .from(linesOfBusiness)
        .where(sql`lower(${linesOfBusiness.name}) = ${body.name.toLowerCase()}`);
      if (existing) throw invalidField('name', 'The name has already been taken.');
      const [row] = await deps.db.insert(linesOfBusiness).values({ name: body.name }).returning();
      return { message: MSG.recordAdded, id: row!.id };
    }),
  );

  defineCall(app, deps, API.getOrgRegister, async () => ({
    list: await deps.db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(and(eq(organizations.is_approved, 1), eq(organizations.status, 1)))
      .orderBy(asc(organizations.name)),
  }));

  // organizations and their approval
  defineCall(app, deps, API.createOrganization, ({ body }) => registerOrganization(deps, body));
  defineCall(app, deps, API.getOrganizations, ({ body }) => listOrganizations(deps, body));
  defineCall(app, deps, API.getOrgs, ({ body }) => listOrganizations(deps, body));
  defineCall(app, deps, API.getOrgApproved, ({ body }) => listOrganizations(deps, body, APPROVED));
  defineCall(app, deps, API.getOrgApprove, ({ body }) => listOrganizations(deps, body, WAITING));
  defineCall(
    app,
    deps,
    API.orgApproved,
    audited(
      API.orgApproved,
      { type: 'organization', table: organizations, key: 'org_id', column: organizations.id },
      ({ body }) => setApproval(deps, body),
    ),
  );
  defineCall(
    app,
    deps,
    API.orgStatus,
    audited(
      API.orgStatus,
      { type: 'organization', table: organizations, key: 'org_id', column: organizations.id },
      ({ body }) => setStatus(deps, body),
    ),
  );

  // learning provider requests
  defineCall(app, deps, API.adminGetUsersList, ({ body }) => usersList(deps, body));
  defineCall(app, deps, API.adminGetChildUsersList, ({ body }) => childUsersList(deps, body.slug));
  defineCall(
    app,
    deps,
    API.adminUpdateLearningProviderRequest,
    audited(API.adminUpdateLearningProviderRequest, { type: 'account', table: users, key: 'id' }, ({ body }) =>
      decideProviderRequest(deps, body),
    ),
  );

  // the organization's departments, branches and sections
  defineCall(app, deps, API.orgGetDepartments, ({ auth }) => listUnits(deps, 'department', callerOrganizationId(auth)));
  defineCall(app, deps, API.orgAddDepartment, ({ auth, body }) =>
    addUnit(deps, 'department', callerOrganizationId(auth), body.name),
  );
  defineCall(app, deps, API.orgGetBranches, ({ auth }) => listUnits(deps, 'branch', callerOrganizationId(auth)));
  defineCall(app, deps, API.orgAddBranch, ({ auth, body }) =>
    addUnit(deps, 'branch', callerOrganizationId(auth), body.name),
  );
  defineCall(app, deps, API.orgGetSections, ({ auth }) => listUnits(deps, 'section', callerOrganizationId(auth)));
  defineCall(app, deps, API.orgAddSection, ({ auth, body }) =>
    addUnit(deps, 'section', callerOrganizationId(auth), body.name),
  );

  // sub-admins and organization users
  defineCall(
    app,
    deps,
    API.orgAddOrgSubadmin,
    audited(API.orgAddOrgSubadmin, { type: 'account' }, ({ auth, body }) =>
      addOrgSubadmin(deps, callerOrganizationId(auth), body),
    ),
  );
  defineCall(
    app,
    deps,
    API.orgAddOrgUser,
    audited(API.orgAddOrgUser, { type: 'account' }, ({ auth, body }) =>
      addOrgUser(deps, callerOrganizationId(auth), body),
    ),
  );
  defineCall(app, deps, API.adminNewOrgSubadminRequest, ({ body }) => subadminRequests(deps, body.type));
  defineCall(
    app,
    deps,
    API.adminUpdateOrgSubadminRequest,
    audited(
      API.adminUpdateOrgSubadminRequest,
      { type: 'org-subadmin-request', table: orgSubadminRequests, key: 'odid', column: orgSubadminRequests.id },
      ({ body }) => decideSubadminRequest(deps, body),
    ),
  );

  // home pages
  defineCall(app, deps, API.orgDashboardData, ({ auth }) => orgDashboard(deps, callerOrganizationId(auth)));
  defineCall(app, deps, API.ouDashboardData, ({ auth }) => ouDashboard(deps, auth));
  defineCall(app, deps, API.adminDashboardData, () => adminDashboard(deps));

  // users the caller manages
  defineCall(app, deps, API.getAllLpUsers, ({ body, auth }) => listManagedUsers(deps, auth, body), {
    cache: { tables: ['users'] },
  });
  defineCall(app, deps, API.getUserDetails, ({ auth, body }) => managedUserDetails(deps, auth, body.slug));
  defineCall(
    app,
    deps,
    API.updateUserProfile,
    audited(API.updateUserProfile, { type: 'account', table: users, key: 'slug' }, ({ auth, body }) =>
      updateManagedUser(deps, auth, body),
    ),
  );

  // trainers (admin)
  defineCall(
    app,
    deps,
    API.trainerRegister,
    audited(API.trainerRegister, { type: 'trainer' }, ({ body }) => registerTrainer(deps, body)),
  );
  defineCall(app, deps, API.trainerList, ({ body }) => listTrainers(deps, body));
  defineCall(app, deps, API.getTrainer, ({ body }) => getTrainer(deps, body.id));
  defineCall(
    app,
    deps,
    API.updateTrainer,
    audited(API.updateTrainer, { type: 'trainer', table: users, key: 'id' }, ({ body }) => updateTrainer(deps, body)),
  );
}
