import type { Role, SessionUser } from '@trainlab/contract';
import type { UserRow } from '../../platform/http/auth-context';

export function toSessionUser(user: UserRow, token: string): SessionUser {
  const roles = user.roles as Role[];
  return {
    token,
    roles,
    role: roles[0] ?? 'user',
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    mobile_no: user.mobile_no,
    slug: user.slug,
    _id: user.id,
  };
}
