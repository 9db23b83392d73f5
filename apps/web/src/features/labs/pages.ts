import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Cloud lab screens (spec 02 §2 'Cloud virtual machines and billing'), by route pattern. */
export const LAB_PAGES: Record<string, LazyPage> = {
  '/register-cloud-account': lazyPage(() => import('./AccountPages'), 'RegisterCloudAccountPage'),
  '/authorize-cloud-account': lazyPage(() => import('./AccountPages'), 'AuthorizeCloudAccountPage'),
  '/create-vm': lazyPage(() => import('./CreateVmPage'), 'CreateVmPage'),
  '/vm-list': lazyPage(() => import('./VmListPages'), 'VmListPage'),
  '/vm-details/:name': lazyPage(() => import('./VmListPages'), 'VmDetailsPage'),
  '/assign-vm-to-user': lazyPage(() => import('./AssignVmPage'), 'AssignVmPage'),
  '/vm/:name': lazyPage(() => import('./VmPage'), 'VmPage'),
};
