import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The audit trail's screen. */
export const AUDIT_PAGES: Record<string, LazyPage> = {
  '/audit-log': lazyPage(() => import('./AuditLogPage'), 'AuditLogPage'),
};
