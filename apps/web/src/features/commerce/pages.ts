import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The public catalogue, cart, test checkout and VM billing screens, by route pattern. */
export const COMMERCE_PAGES: Record<string, LazyPage> = {
  '/courses': lazyPage(() => import('./CatalogPages'), 'CoursesPage'),
  '/certifications': lazyPage(() => import('./CatalogPages'), 'CertificationsPage'),
  '/certification-details/:id': lazyPage(() => import('./CertificationPage'), 'CertificationDetailsPage'),
  '/course-details/:slug': lazyPage(() => import('./CoursePage'), 'CourseDetailsPage'),
  '/my-purchases': lazyPage(() => import('./PurchasesPages'), 'MyPurchasesPage'),
  '/my-payments': lazyPage(() => import('./PurchasesPages'), 'MyPaymentsPage'),
  '/cart': lazyPage(() => import('./CartPages'), 'CartPage'),
  '/view-cart': lazyPage(() => import('./CartPages'), 'CartPage'),
  '/payment': lazyPage(() => import('./CartPages'), 'PaymentPage'),
  '/cloud-payment': lazyPage(() => import('./BillingPages'), 'CloudPaymentPage'),
  '/vm-payments-history': lazyPage(() => import('./BillingPages'), 'VmPaymentsHistoryPage'),
};
