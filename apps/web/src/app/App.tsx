import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient, Providers } from './providers';
import { routerFlushSync } from './router-flush-sync';
import { routerSetup } from './routes';

export function App() {
  const [router] = useState(() => {
    const { routes, patchRoutesOnNavigation } = routerSetup(window.location.pathname);
    return createBrowserRouter(routes, { patchRoutesOnNavigation });
  });
  const [queryClient] = useState(createQueryClient);
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} flushSync={routerFlushSync} />
    </Providers>
  );
}
