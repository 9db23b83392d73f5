import { LEARNER_ROLES, MANAGER_ROLES, type Role, TRAINING_STAFF_ROLES } from './roles.js';

/**
 * The route table of spec 01 §2 ('Route table by access'). The web router is generated from it
 * and a test walks every entry for every role. Paths use React Router's `:param` syntax.
 *
 * - `open`: anyone may load the page (a page may still ask an anonymous visitor to log in).
 * - a role list: a logged-in account needs one of these roles, otherwise /not-authorized; an
 *   anonymous visitor goes to `/` (or to /login with the path stored when `anonymous: 'login'`).
 */
export type RouteAccess = 'open' | readonly Role[];
export interface WebRoute {
  path: string;
  access: RouteAccess;
  /** What an anonymous visitor of a guarded route gets. */
  anonymous?: 'home' | 'login';
  /** Open pages that need an account send anonymous visitors to /login (path stored). */
  needsSession?: boolean;
  /**
   * An open page whose screen is one group's: the roles whose calls it makes (the contract test
   * holds each list to its call's). Another signed-in role goes to its counterpart, or to
   * /not-authorized, instead of a screen whose every call it would be refused.
   */
  serves?: readonly Role[];
  /** Where a role outside `serves` goes instead: a pattern with the same `:params`. */
  counterparts?: Partial<Record<Role, string>>;
}

const PROVIDER_TEAM: readonly Role[] = MANAGER_ROLES;
const LEARNERS: readonly Role[] = LEARNER_ROLES;
const TRAINING_STAFF: readonly Role[] = TRAINING_STAFF_ROLES;
/** Everyone in a training: its staff and its learners; every role but the platform admin. */
const PARTICIPANTS: readonly Role[] = [...LEARNERS, ...TRAINING_STAFF];
const toEach = (roles: readonly Role[], path: string) => Object.fromEntries(roles.map((r) => [r, path]));

const open = (path: string, extra: Partial<WebRoute> = {}): WebRoute => ({ path, access: 'open', ...extra });
const only =
  (roles: readonly Role[]) =>
  (path: string): WebRoute => ({ path, access: roles });

const OPEN_ROUTES: WebRoute[] = [
  open('/'),
  open('/login'),
  open('/register'),
  open('/forgot-password'),
  open('/reset-password/:i_t'),
  open('/register-organization'),
  open('/courses'),
  open('/cart'),
  open('/certifications'),
  open('/certification-details/:id'),
  // the public page of a catalogue course, with Add to cart (issue 32)
  open('/course-details/:slug'),
  open('/certificate/verify/:ref_no'),
  open('/public/conference/:meetingId'),
  open('/training-register/:slug'),
  open('/training-home'),
  open('/change-password', { needsSession: true }),
  open('/not-authorized'),
  open('/privacy-policy'),
  open('/terms-and-conditions'),
  open('/comming-soon'),
  open('/payment'),
  open('/course-list', { needsSession: true }),
  open('/recording'),
  open('/recording/:id', { serves: PARTICIPANTS }),
  open('/end-meeting/:slug'),
  open('/training-details/:slug', {
    needsSession: true,
    serves: TRAINING_STAFF,
    counterparts: toEach(LEARNERS, '/user/training-details/:slug'),
  }),
  open('/user/training-details/:slug', {
    needsSession: true,
    serves: LEARNERS,
    counterparts: toEach(TRAINING_STAFF, '/training-details/:slug'),
  }),
  open('/vm/:name', { needsSession: true, serves: [...PROVIDER_TEAM, ...LEARNERS] }),
  open('/my-trainings', { needsSession: true, serves: PARTICIPANTS }),
  // the conference stores the path and comes back after login (spec 01 §2)
  open('/conference/:slug', { needsSession: true, serves: PARTICIPANTS }),
  open('/training/start/:id', { needsSession: true, serves: PARTICIPANTS }),
  open('/course/:slug', { needsSession: true, serves: [...PROVIDER_TEAM, ...LEARNERS] }),
  open('/white-board', { needsSession: true, serves: PARTICIPANTS }),
  open('/training/:slug', { needsSession: true }),
  open('/user/courses/list', {
    needsSession: true,
    serves: LEARNERS,
    counterparts: toEach(PROVIDER_TEAM, '/all-courses'),
  }),
  // any signed-in account can buy, so any can see what it bought and paid (issue 32)
  open('/my-purchases', { needsSession: true }),
  open('/my-payments', { needsSession: true }),
  // single sign-on lands here with ?code= or ?error= (issue 15)
  open('/sso/complete'),
];

const ROLE_ROUTES: WebRoute[] = [
  ...['/users', '/view-cart'].map(only(['user'])),
  only(['provider'])('/learning-provider'),
  only(['provider_user'])('/lpu-home'),
  // every kind of learner downloads their own certificate (the spec lists provider_user only)
  only(['provider_user', 'organization_user', 'user'])('/certificate/:slug'),
  ...['/organization', '/org/add-org-sub-admin', '/org/add-org-subadmin'].map(only(['organization'])),
  only(['organization_user'])('/ou/home'),
  only(['organization'])('/org/sso-settings'),
  only(['admin'])('/admin/organization-sso/:id'),
  ...[
    '/trainer/add-bank-details',
    '/trainer/bank-details-list',
    '/trainer/update-bank-details/:id',
    '/trainer/update-profile',
    '/trainer/profile',
    '/trainer/skill-add',
    '/trainer/skill-update/:id',
    '/trainer/skill-list',
    '/trainer/certificate/add',
    '/trainer/certificate/update/:id',
    '/trainer/certificate/list',
    '/trainer/reference/add',
    '/trainer/reference/update/:id',
    '/trainer/reference/list',
    '/trainer/assigned-trainings',
    '/trainer-home',
    '/trainer-take-calls',
    '/confirm-training-requirement/:id',
  ].map(only(['trainer'])),
  ...[
    '/admin/home',
    '/admin/categories',
    '/trainer/register',
    '/trainer/list',
    '/admin/trainer-bank-details',
    '/trainer/update/:id',
    '/service/create',
    '/service/list',
    '/service/edit/:id',
    '/admin/create-training-course',
    '/admin/training-course-list',
    '/certification/create',
    '/certification/edit/:id',
    '/certification/list',
    '/admin/vm-pricing-chart',
    '/admin/lab-limits',
    '/admin/organizations',
    '/admin/approve-organizations',
    '/admin/learning-providers',
    '/admin/learning-provider-users-list/:slug',
    '/get-organizations',
    '/admin/org-sub-admin-requests',
    '/admin/org-sub-admin',
    '/admin/learning-provider-requests',
  ].map(only(['admin'])),
  ...[
    '/take-calls',
    '/take-call-trainers/:id',
    '/trainer/requirement/confirm/:trainer_id/:take_call_id',
    '/assessment/add/:slug',
    '/course/assign-to-users/:slug',
    '/course/assign-users-list/:slug',
    '/add-training-syllabus/:slug',
    '/training-syllabus/:slug',
    '/training-attendance/:id',
    '/trainer/take/call/:slug',
    '/assing/trainer/:slug',
    '/cloud-payment',
    '/vm-payments-history',
    '/create-training',
    '/register-cloud-account',
    '/authorize-cloud-account',
    '/create-vm',
    '/vm-list',
    '/vm-details/:name',
    '/assign-vm-to-user',
    '/create-course',
    '/course-view/:slug',
    '/edit-course/:slug',
    '/all-courses',
    '/all-trainings',
    '/completed-trainings',
    '/completed-training-users/:slug',
    '/add-training-user/:slug',
    '/show-training-users/:slug',
  ].map(only(PROVIDER_TEAM)),
  // the test page is the managers' in the spec; learners take their pre- and post-tests on it too
  { path: '/assessment', access: [...PROVIDER_TEAM, 'provider_user', 'organization_user', 'user'], anonymous: 'login' },
  // the admin's all-users screen (spec 02 §2 'Admin master data') shares these two pages
  ...['/users-list', '/update-user-profile/:slug'].map(only([...PROVIDER_TEAM, 'admin'])),
  // the question bank: a manager's own (with the shared one); the admin keeps the shared bank
  ...['/question-bank/add', '/question-bank/show'].map(only([...PROVIDER_TEAM, 'admin'])),
  // a take call's meeting room: its managers and the trainers it was sent to (the server decides which)
  only([...PROVIDER_TEAM, 'trainer'])('/take-call-meeting/:id'),
  // the audit trail (issue 20): the admin's every row, a manager's own tenant's rows
  only([...PROVIDER_TEAM, 'admin'])('/audit-log'),
];

/** The whole route table: open routes win where the spec lists a path twice. */
export const WEB_ROUTES: readonly WebRoute[] = [
  ...OPEN_ROUTES,
  ...ROLE_ROUTES.filter((r) => !OPEN_ROUTES.some((o) => o.path === r.path)),
];

export type RouteDecision = 'allow' | 'not-authorized' | 'to-home' | 'to-login' | 'counterpart';

/** The guard rule of spec 01 §6, in one place for the router and its test. */
export function decideAccess(route: WebRoute, roles: readonly string[] | null): RouteDecision {
  if (route.access === 'open') {
    if (!roles && route.needsSession) return 'to-login';
    if (!roles || !route.serves || route.serves.some((r) => roles.includes(r))) return 'allow';
    return counterpartOf(route, roles) ? 'counterpart' : 'not-authorized';
  }
  if (!roles) return route.anonymous === 'login' ? 'to-login' : 'to-home';
  return route.access.some((r) => roles.includes(r)) ? 'allow' : 'not-authorized';
}

/** The pattern a signed-in visitor outside a route's `serves` goes to instead (same `:params`). */
export function counterpartOf(route: WebRoute, roles: readonly string[]): string | undefined {
  const own = roles.find((r) => route.counterparts?.[r as Role]);
  return own ? route.counterparts?.[own as Role] : undefined;
}
