import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Single sign-on screens (issue 15), by route pattern. */
export const SSO_PAGES: Record<string, LazyPage> = {
  '/sso/complete': lazyPage(() => import('./SsoCompletePage'), 'SsoCompletePage'),
  '/org/sso-settings': lazyPage(() => import('./SsoSettingsPage'), 'OrgSsoSettingsPage'),
  '/admin/organization-sso/:id': lazyPage(() => import('./SsoSettingsPage'), 'AdminSsoSettingsPage'),
};
