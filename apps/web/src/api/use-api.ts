import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost } from './client';

/** A read call cached under its path and body: `useApiQuery<{list: Row[]}>('category-list')`. */
export function useApiQuery<T>(path: string, body: Record<string, unknown> = {}, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: [path, body], queryFn: () => apiPost<T>(path, body), enabled: options.enabled });
}

/** A write call that refreshes the given read calls when it succeeds. */
export function useApiMutation<B, T = { message?: string }>(path: string, invalidates: string[] = []) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => apiPost<T>(path, body),
    onSuccess: async () => {
      await Promise.all(invalidates.map((p) => client.invalidateQueries({ queryKey: [p] })));
    },
  });
}
