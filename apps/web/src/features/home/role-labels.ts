/** Readable names of the roles for badges and welcome text. */
export const ROLE_LABELS: Record<string, string> = {
  user: 'User',
  provider: 'Learning Provider',
  provider_user: 'Provider User',
  organization: 'Organization',
  organization_user: 'Organization User',
  org_subadmin: 'Organization Sub Admin',
  trainer: 'Trainer',
  admin: 'Admin',
};

export function roleLabel(role: string): string {
  return ROLE_LABELS[role] ?? role;
}
