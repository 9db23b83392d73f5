import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The public catalogue: courses, certifications and their own pages, by route pattern. */
export const CATALOG_PAGES: Record<string, LazyPage> = {
  '/courses': lazyPage(() => import('./CatalogPages'), 'CoursesPage'),
  '/certifications': lazyPage(() => import('./CatalogPages'), 'CertificationsPage'),
  '/certification-details/:id': lazyPage(() => import('./CertificationPage'), 'CertificationDetailsPage'),
  '/course-details/:slug': lazyPage(() => import('./CoursePage'), 'CourseDetailsPage'),
};
