import {
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { ApiAnswer, ApiPath, ApiRequest, QueryArgs, SendCall } from './call-types';
import { apiPost } from './client';

interface QueryOptions {
  enabled?: boolean;
}

/**
 * A read call cached under its path and body: `useApiQuery('category-list')`, its data typed by the
 * call's response schema and its body checked against the request schema.
 */
export function useApiQuery<P extends ApiPath>(
  path: P,
  ...args: QueryArgs<P, QueryOptions>
): UseQueryResult<ApiAnswer<P>, Error>;
export function useApiQuery(path: string, body: unknown = {}, options: QueryOptions = {}) {
  return useQuery({
    queryKey: [path, body],
    queryFn: () => (apiPost as SendCall)(path, body),
    enabled: options.enabled,
  });
}

/** A write call that refreshes the given read calls when it succeeds. */
export function useApiMutation<P extends ApiPath>(
  path: P,
  invalidates: ApiPath[] = [],
): UseMutationResult<ApiAnswer<P>, Error, ApiRequest<P>> {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiRequest<P>) => (apiPost as SendCall)(path, body) as Promise<ApiAnswer<P>>,
    onSuccess: async () => {
      await Promise.all(invalidates.map((p) => client.invalidateQueries({ queryKey: [p] })));
    },
  });
}
