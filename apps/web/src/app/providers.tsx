import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { ApiError } from '../api/client';
import { ConfirmHost } from '../ui/confirm';
import { cssVariablesResolver, theme } from './theme';

// Toasts are queued by `notifications.show` and drawn once this host has loaded (its own chunk).
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // a 4xx will not change by asking again
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

interface ProvidersProps {
  children: ReactNode;
  queryClient: QueryClient;
  /** 'test' turns off transitions and portals in component tests. */
  env?: 'default' | 'test';
}

export function Providers({ children, queryClient, env = 'default' }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" env={env}>
      <Suspense fallback={null}>
        {/* below the 60 px header (global.css), so a toast never covers its buttons */}
        <Notifications position="top-right" limit={3} autoClose={4000} />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        {children}
        <ConfirmHost />
      </QueryClientProvider>
    </MantineProvider>
  );
}
