import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Screens of organizations, approvals, users and trainers, by route pattern. */
export const ORGANIZATION_PAGES: Record<string, LazyPage> = {
  '/register-organization': lazyPage(() => import('./RegisterOrganizationPage'), 'RegisterOrganizationPage'),
  '/admin/home': lazyPage(() => import('./AdminHomePage'), 'AdminHomePage'),
  '/admin/organizations': lazyPage(() => import('./AdminOrganizationsPages'), 'AdminOrganizationsPage'),
  '/get-organizations': lazyPage(() => import('./AdminOrganizationsPages'), 'AdminOrganizationsPage'),
  '/admin/approve-organizations': lazyPage(() => import('./AdminOrganizationsPages'), 'ApproveOrganizationsPage'),
  '/admin/learning-providers': lazyPage(() => import('./ProviderPages'), 'LearningProvidersPage'),
  '/admin/learning-provider-users-list/:slug': lazyPage(() => import('./ProviderPages'), 'ProviderUsersPage'),
  '/admin/learning-provider-requests': lazyPage(() => import('./ProviderPages'), 'ProviderRequestsPage'),
  '/admin/org-sub-admin': lazyPage(() => import('./SubAdminPages'), 'OrgSubAdminsPage'),
  '/admin/org-sub-admin-requests': lazyPage(() => import('./SubAdminPages'), 'OrgSubAdminRequestsPage'),
  '/org/add-org-sub-admin': lazyPage(() => import('./AddOrgMemberPage'), 'AddOrgMemberPage'),
  '/org/add-org-subadmin': lazyPage(() => import('./AddOrgMemberPage'), 'AddOrgMemberPage'),
  '/organization': lazyPage(() => import('./HomePages'), 'OrganizationHomePage'),
  '/ou/home': lazyPage(() => import('./HomePages'), 'OuHomePage'),
  '/users-list': lazyPage(() => import('./UserPages'), 'UsersListPage'),
  '/update-user-profile/:slug': lazyPage(() => import('./UserPages'), 'UpdateUserProfilePage'),
  '/trainer/register': lazyPage(() => import('./TrainerPages'), 'TrainerRegisterPage'),
  '/trainer/list': lazyPage(() => import('./TrainerPages'), 'TrainerListPage'),
  '/trainer/update/:id': lazyPage(() => import('./TrainerPages'), 'TrainerUpdatePage'),
};
