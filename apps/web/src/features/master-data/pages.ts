import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Screens of the admin's master data, by route pattern. */
export const MASTER_DATA_PAGES: Record<string, LazyPage> = {
  '/certification/create': lazyPage(() => import('./CertificationPages'), 'CertificationCreatePage'),
  '/certification/list': lazyPage(() => import('./CertificationPages'), 'CertificationListPage'),
  '/certification/edit/:id': lazyPage(() => import('./CertificationPages'), 'CertificationEditPage'),
  '/admin/categories': lazyPage(() => import('./CategoriesPage'), 'CategoriesPage'),
  '/admin/create-training-course': lazyPage(() => import('./CreateTrainingCoursePage'), 'CreateTrainingCoursePage'),
  '/admin/training-course-list': lazyPage(() => import('./TrainingCourseListPage'), 'TrainingCourseListPage'),
  '/service/create': lazyPage(() => import('./ServicePages'), 'ServiceCreatePage'),
  '/service/list': lazyPage(() => import('./ServicePages'), 'ServiceListPage'),
  '/service/edit/:id': lazyPage(() => import('./ServicePages'), 'ServiceEditPage'),
  '/admin/vm-pricing-chart': lazyPage(() => import('./VmPricingPage'), 'VmPricingPage'),
  '/admin/lab-limits': lazyPage(() => import('./LabLimitsPage'), 'LabLimitsPage'),
};
