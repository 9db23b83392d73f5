import type { ApiCall } from '../api-base.js';
import { call, empty } from '../api-base.js';
import type { Role } from '../roles.js';
import * as o from '../schemas/organizations.js';

const ADMIN: readonly Role[] = ['admin'];
const ORG_OWNER: readonly Role[] = ['organization'];
const ORG_TEAM: readonly Role[] = ['organization', 'org_subadmin'];
const USER_MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin', 'admin'];

/**
 * Organizations and their approval, learning-provider and sub-admin requests, the organization's
 * departments/branches/sections and members, dashboards, managed users and trainers
 * (spec 01 §7, spec 02 §7 'Admin approvals', 'Trainer data').
 */
export const ORGANIZATION_CALLS = {
  createOrganization: call(
    'create-organization',
    'public',
    'Register an organization; it waits for admin approval (is_approved 0).',
    o.registerOrganizationRequest,
    o.registerOrganizationResponse,
  ),
  getOrganizations: call(
    'get-organizations',
    ADMIN,
    'All organizations, full records; paged, searchable by name, e-mail or domain.',
    o.organizationsRequest,
    o.organizationList,
  ),
  getOrgs: call(
    'get-orgs',
    ADMIN,
    'All organizations, full records; paged, searchable by name, e-mail or domain.',
    o.organizationsRequest,
    o.organizationList,
  ),
  getOrgApproved: call(
    'get-org-approved',
    ADMIN,
    'Approved organizations; paged, searchable by name, e-mail or domain.',
    o.organizationsRequest,
    o.organizationList,
  ),
  getOrgApprove: call(
    'get-org-approve',
    ADMIN,
    'Organizations waiting for approval; paged, searchable by name, e-mail or domain.',
    o.organizationsRequest,
    o.organizationList,
  ),
  orgApproved: call(
    'org-approved',
    ADMIN,
    'Approve (1, e-mails the organization) or withdraw approval (0) of an organization.',
    o.orgApprovedRequest,
    o.orgChangeResponse,
  ),
  orgStatus: call(
    'org-status',
    ADMIN,
    'Activate (1) or deactivate (0) an organization; a deactivated one and all its accounts cannot sign in.',
    o.orgStatusRequest,
    o.orgChangeResponse,
  ),

  adminGetUsersList: call(
    'admin/get-users-list',
    ADMIN,
    'Accounts of one type (role 3 learning provider); type "request" lists those waiting for approval.',
    o.adminUsersListRequest,
    o.adminUsersListResponse,
  ),
  adminGetChildUsersList: call(
    'admin/get-child-users-list',
    ADMIN,
    'The provider_user accounts of the learning provider with this slug.',
    o.childUsersListRequest,
    o.childUsersListResponse,
  ),
  adminUpdateLearningProviderRequest: call(
    'admin/update-learninig-provider-request',
    ADMIN,
    'Accept (1) or reject (0) a learning provider (or organization account) waiting for approval.',
    o.providerRequestDecision,
    o.decisionResponse,
  ),

  orgGetDepartments: call(
    'org/get-departments',
    ORG_TEAM,
    'Departments of the caller’s organization.',
    empty,
    o.orgUnitList,
  ),
  orgAddDepartment: call('org/add-department', ORG_TEAM, 'Add a department.', o.addOrgUnitRequest, o.addedResponse),
  orgGetBranches: call('org/get-branches', ORG_TEAM, 'Branches of the caller’s organization.', empty, o.orgUnitList),
  orgAddBranch: call('org/add-branch', ORG_TEAM, 'Add a branch.', o.addOrgUnitRequest, o.addedResponse),
  orgGetSections: call('org/get-sections', ORG_TEAM, 'Sections of the caller’s organization.', empty, o.orgUnitList),
  orgAddSection: call('org/add-section', ORG_TEAM, 'Add a section.', o.addOrgUnitRequest, o.addedResponse),

  orgAddOrgSubadmin: call(
    'org/add-org-subadmin',
    ORG_OWNER,
    'Propose a sub-admin of the caller’s organization (waits for admin approval); e-mails a set-password link.',
    o.orgMemberRequest,
    o.orgMemberCreated,
  ),
  orgAddOrgUser: call(
    'org/add-org-user',
    ORG_TEAM,
    'Add an organization user (active at once); e-mails a set-password link.',
    o.orgMemberRequest,
    o.orgMemberCreated,
  ),
  adminNewOrgSubadminRequest: call(
    'admin/new-org-subadmin-request',
    ADMIN,
    'Org sub-admin requests: type "request" the pending ones, otherwise the accepted sub-admins.',
    o.subadminRequestsRequest,
    o.subadminRequestsResponse,
  ),
  adminUpdateOrgSubadminRequest: call(
    'admin/update-org-subadmin-request',
    ADMIN,
    'Accept (1) or reject (0) an org sub-admin request.',
    o.subadminDecision,
    o.decisionResponse,
  ),

  orgDashboardData: call(
    'org/dashboard-data',
    ORG_TEAM,
    'Organization home: member and structure counts and the latest users.',
    empty,
    o.orgDashboardResponse,
  ),
  ouDashboardData: call(
    'ou/dashboard-data',
    ['organization_user'],
    'Organization user home: the organization and the branch, department and section assigned.',
    empty,
    o.ouDashboardResponse,
  ),
  adminDashboardData: call(
    'admin/dashboard-data',
    ADMIN,
    'Admin home: what waits for approval and platform totals.',
    empty,
    o.adminDashboardResponse,
  ),

  getAllLpUsers: call(
    'get-all-lp-users',
    USER_MANAGERS,
    'The users the caller manages (a provider its provider users, an organization its members, the admin everyone but admins); paged, searchable by name, e-mail or mobile.',
    o.managedUsersRequest,
    o.managedUserPage,
  ),
  getUserDetails: call(
    'get-user-details',
    USER_MANAGERS,
    'One user the caller manages, by slug.',
    o.userSlugRequest,
    o.managedUserResponse,
  ),
  updateUserProfile: call(
    'update-user-profile',
    USER_MANAGERS,
    'Edit a user the caller manages.',
    o.updateUserProfileRequest,
    o.updatedResponse,
  ),

  trainerRegister: call(
    'trainer-register',
    ADMIN,
    'Create a trainer account and e-mail it a set-password link.',
    o.trainerRequest,
    o.trainerCreated,
  ),
  trainerList: call(
    'trainer-list',
    ADMIN,
    'All trainers; paged, searchable by name, e-mail or mobile.',
    o.trainerListRequest,
    o.trainerList,
  ),
  getTrainer: call('get-trainer', ADMIN, 'One trainer, by id.', o.trainerIdRequest, o.trainerResponse),
  updateTrainer: call('update-trainer', ADMIN, 'Edit a trainer.', o.updateTrainerRequest, o.updatedResponse),
} satisfies Record<string, ApiCall>;
