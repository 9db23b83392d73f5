import { useQuery } from '@tanstack/react-query';
import type { ListRow } from '../../api/call-types';
import { apiPost } from '../../api/client';

/** A choice of the register form (an organization, a line of business). */
export type Option = ListRow<'get-org-register'>;

/** Account types a visitor can register (spec 01 §3). */
export const ACCOUNT_TYPES = [
  { value: '2', label: 'User' },
  { value: '3', label: 'Learning Provider' },
  { value: '6', label: 'Organization' },
] as const;

export function useOptionList(path: 'get-org-register' | 'get-line-of-business', enabled: boolean) {
  return useQuery({
    queryKey: [path],
    queryFn: () => apiPost(path),
    select: (data) => data.list ?? [],
    enabled,
  });
}
