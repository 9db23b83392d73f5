import type { Role } from './roles.js';

export interface MenuItem {
  label: string;
  path: string;
}

const m = (label: string, path: string): MenuItem => ({ label, path });

const TRAINING_ENTRIES = [
  m('Create Training', '/create-training'),
  m('Upcoming Trainings', '/all-trainings'),
  m('Completed Trainings', '/completed-trainings'),
  m('Users', '/users-list'),
];
const COURSE_ENTRIES = [m('Create Course', '/create-course'), m('All Courses', '/all-courses')];
const CLOUD_ENTRIES = [
  m('Register Cloud Account', '/register-cloud-account'),
  m('Authorize Cloud Account', '/authorize-cloud-account'),
  m('VM List', '/vm-list'),
  m('Assign VM To User', '/assign-vm-to-user'),
  m('Cloud Payment', '/cloud-payment'),
];
const MY_TRAININGS = m('My Trainings', '/my-trainings');
/** issue 20: the admin reads every audit row, a tenant's manager their tenant's */
const AUDIT_LOG = m('Audit Trail', '/audit-log');

/**
 * The sidebar of each role (spec 01 §2 'Authenticated shell'). The question bank and take calls
 * show to providers only (spec 01 §6). Every non-admin role also gets My Trainings.
 */
export const SIDEBAR: Record<Role, MenuItem[]> = {
  provider: [
    ...TRAINING_ENTRIES,
    m('Question Bank', '/question-bank/show'),
    m('Take Calls', '/take-calls'),
    ...COURSE_ENTRIES,
    ...CLOUD_ENTRIES,
    AUDIT_LOG,
    m('Change Password', '/change-password'),
    MY_TRAININGS,
  ],
  provider_user: [m('Dashboard', '/lpu-home'), m('My Courses', '/user/courses/list'), MY_TRAININGS],
  // issue 32: a buyer reaches the catalogue, what they own and what they paid from the menu
  user: [
    m('Dashboard', '/users'),
    m('Catalogue', '/courses'),
    m('My Courses', '/user/courses/list'),
    m('Cart', '/view-cart'),
    m('My purchases', '/my-purchases'),
    m('Payments', '/my-payments'),
    MY_TRAININGS,
  ],
  organization: [
    m('Organization', '/organization'),
    ...TRAINING_ENTRIES,
    ...COURSE_ENTRIES,
    ...CLOUD_ENTRIES,
    m('Single Sign-On', '/org/sso-settings'),
    AUDIT_LOG,
    m('Change Password', '/change-password'),
    MY_TRAININGS,
  ],
  // org sub-admins work on the organization's trainings, courses and labs
  org_subadmin: [
    ...TRAINING_ENTRIES,
    ...COURSE_ENTRIES,
    ...CLOUD_ENTRIES,
    AUDIT_LOG,
    m('Change Password', '/change-password'),
    MY_TRAININGS,
  ],
  organization_user: [m('Dashboard', '/ou/home'), m('My Courses', '/user/courses/list'), MY_TRAININGS],
  trainer: [
    m('Dashboard', '/trainer-home'),
    m('Assigned Trainings', '/trainer/assigned-trainings'),
    m('Take Calls', '/trainer-take-calls'),
    m('Profile', '/trainer/profile'),
    m('Bank Details', '/trainer/bank-details-list'),
    m('Skills', '/trainer/skill-list'),
    m('Certificates', '/trainer/certificate/list'),
    m('References', '/trainer/reference/list'),
    MY_TRAININGS,
  ],
  admin: [
    m('Dashboard', '/admin/home'),
    m('Organizations', '/admin/organizations'),
    m('Approve Organizations', '/admin/approve-organizations'),
    m('Sub Admin Requests', '/admin/org-sub-admin-requests'),
    m('Org Sub Admins', '/admin/org-sub-admin'),
    m('Provider Requests', '/admin/learning-provider-requests'),
    m('Learning Providers', '/admin/learning-providers'),
    m('Services', '/service/list'),
    m('Trainers', '/trainer/list'),
    m('Trainer Bank Details', '/admin/trainer-bank-details'),
    m('Shared Question Bank', '/question-bank/show'),
    m('Categories', '/admin/categories'),
    m('Training Courses', '/admin/training-course-list'),
    m('Certifications', '/certification/list'),
    m('VM Pricing', '/admin/vm-pricing-chart'),
    m('Lab Limits', '/admin/lab-limits'),
    AUDIT_LOG,
  ],
};

/** The menu of an account with several roles: each role's entries, without repeats. */
export function menuForRoles(roles: readonly string[]): MenuItem[] {
  const seen = new Set<string>();
  const items: MenuItem[] = [];
  const list = roles.includes('admin') ? ['admin'] : roles;
  for (const role of list) {
    for (const item of SIDEBAR[role as Role] ?? []) {
      if (!seen.has(item.path)) {
        seen.add(item.path);
        items.push(item);
      }
    }
  }
  return items;
}
