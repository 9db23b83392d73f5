import type { ComponentType } from 'react';
import { AddOrgMemberPage } from './AddOrgMemberPage';
import { AdminHomePage } from './AdminHomePage';
import { AdminOrganizationsPage, ApproveOrganizationsPage } from './AdminOrganizationsPages';
import { OrganizationHomePage, OuHomePage } from './HomePages';
import { LearningProvidersPage, ProviderRequestsPage, ProviderUsersPage } from './ProviderPages';
import { RegisterOrganizationPage } from './RegisterOrganizationPage';
import { OrgSubAdminRequestsPage, OrgSubAdminsPage } from './SubAdminPages';
import { TrainerListPage, TrainerRegisterPage, TrainerUpdatePage } from './TrainerPages';
import { UpdateUserProfilePage, UsersListPage } from './UserPages';

/** Screens of organizations, approvals, users and trainers, by route pattern. */
export const ORGANIZATION_PAGES: Record<string, ComponentType> = {
  '/register-organization': RegisterOrganizationPage,
  '/admin/home': AdminHomePage,
  '/admin/organizations': AdminOrganizationsPage,
  '/get-organizations': AdminOrganizationsPage,
  '/admin/approve-organizations': ApproveOrganizationsPage,
  '/admin/learning-providers': LearningProvidersPage,
  '/admin/learning-provider-users-list/:slug': ProviderUsersPage,
  '/admin/learning-provider-requests': ProviderRequestsPage,
  '/admin/org-sub-admin': OrgSubAdminsPage,
  '/admin/org-sub-admin-requests': OrgSubAdminRequestsPage,
  '/org/add-org-sub-admin': AddOrgMemberPage,
  '/org/add-org-subadmin': AddOrgMemberPage,
  '/organization': OrganizationHomePage,
  '/ou/home': OuHomePage,
  '/users-list': UsersListPage,
  '/update-user-profile/:slug': UpdateUserProfilePage,
  '/trainer/register': TrainerRegisterPage,
  '/trainer/list': TrainerListPage,
  '/trainer/update/:id': TrainerUpdatePage,
};
