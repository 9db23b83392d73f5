/** The eight account roles. Role names travel on the wire exactly as written here. */
export const ROLES = [
  'user',
  'provider',
  'provider_user',
  'organization',
  'organization_user',
  'org_subadmin',
  'trainer',
  'admin',
] as const;
export type Role = (typeof ROLES)[number];

/** Learner roles that can be enrolled in a training and use the /lpu calls. */
export const LEARNER_ROLES = ['provider_user', 'organization_user', 'user'] as const;
/** The roles that manage a tenant's trainings, courses and labs: a provider, an organization and its sub-admins. */
export const MANAGER_ROLES = ['provider', 'organization', 'org_subadmin'] as const;
/** Who runs or teaches a training: its tenant's managers and trainers. */
export const TRAINING_STAFF_ROLES = [...MANAGER_ROLES, 'trainer'] as const;

/** Numeric account types used by registration (`user_type`) and admin user lists. */
export const USER_TYPES = {
  admin: 1,
  user: 2,
  provider: 3,
  provider_user: 4,
  organization_user: 5,
  organization: 6,
  trainer: 7,
  org_subadmin: 8,
} as const satisfies Record<Role, number>;

/** Only these types may self-register through /register. */
export const REGISTRABLE_USER_TYPES = [2, 3, 6] as const;

export function roleForUserType(type: number): Role | undefined {
  return (Object.entries(USER_TYPES) as [Role, number][]).find(([, t]) => t === type)?.[0];
}

/**
 * Where each role lands after login. org_subadmin has no home in the old product; it manages the
 * organization's trainings, so its home is the upcoming-trainings list.
 */
export const ROLE_HOME: Record<Role, string> = {
  user: '/users',
  provider: '/learning-provider',
  organization: '/organization',
  organization_user: '/ou/home',
  admin: '/admin/home',
  provider_user: '/lpu-home',
  trainer: '/trainer-home',
  org_subadmin: '/all-trainings',
};

/** Order in which a multi-role account picks its home: the most capable role first. */
const HOME_PRIORITY: Role[] = [
  'admin',
  'provider',
  'organization',
  'org_subadmin',
  'trainer',
  'provider_user',
  'organization_user',
  'user',
];

export function homeForRoles(roles: readonly string[]): string {
  const role = HOME_PRIORITY.find((r) => roles.includes(r));
  return role ? ROLE_HOME[role] : '/';
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
