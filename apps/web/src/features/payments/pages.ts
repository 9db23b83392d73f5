import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The cart, the checkout, purchases and payments, and VM billing, by route pattern. */
export const PAYMENT_PAGES: Record<string, LazyPage> = {
  '/my-purchases': lazyPage(() => import('./PurchasesPages'), 'MyPurchasesPage'),
  '/my-payments': lazyPage(() => import('./PurchasesPages'), 'MyPaymentsPage'),
  '/cart': lazyPage(() => import('./CartPages'), 'CartPage'),
  '/view-cart': lazyPage(() => import('./CartPages'), 'CartPage'),
  '/payment': lazyPage(() => import('./CartPages'), 'PaymentPage'),
  '/cloud-payment': lazyPage(() => import('./BillingPages'), 'CloudPaymentPage'),
  '/vm-payments-history': lazyPage(() => import('./BillingPages'), 'VmPaymentsHistoryPage'),
};
