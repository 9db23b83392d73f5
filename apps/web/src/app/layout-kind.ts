/** Which frame a page sits in (spec 01 §2: public site, authenticated shell, full-screen conference). */
export type LayoutKind = 'public' | 'shell' | 'bare';

const PUBLIC_PATHS = new Set([
  '/',
  '/training-home',
  '/login',
  '/sso/complete',
  '/register',
  '/forgot-password',
  '/reset-password/:i_t',
  '/register-organization',
  '/courses',
  '/certifications',
  '/cart',
  '/privacy-policy',
  '/terms-and-conditions',
  '/comming-soon',
  '/certificate/verify/:ref_no',
  '/training-register/:slug',
  '/payment',
  '/not-authorized',
  '/certification-details/:id',
  '/course-details/:slug',
]);

const BARE_PATHS = new Set([
  '/conference/:slug',
  '/take-call-meeting/:id',
  '/public/conference/:meetingId',
  '/white-board',
  '/vm/:name',
  '/end-meeting/:slug',
  '/training/start/:id',
]);

export function layoutFor(pattern: string): LayoutKind {
  if (PUBLIC_PATHS.has(pattern)) return 'public';
  if (BARE_PATHS.has(pattern)) return 'bare';
  return 'shell';
}
