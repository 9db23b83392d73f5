import { render } from '@testing-library/react';
import { type Role, USER_TYPES } from '@trainlab/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach } from 'vitest';
import { createQueryClient, Providers } from '../src/app/providers';
import { routerFlushSync } from '../src/app/router-flush-sync';
import { routerSetup } from '../src/app/routes';

export const DEMO_PASSWORD = 'Demo@12345';

/** A session as the login call would have stored it. */
export function signIn(roles: Role[], extra: Partial<Record<string, string>> = {}) {
  const role = roles[0] ?? 'user';
  localStorage.setItem('token', extra.token ?? `token-${role}`);
  localStorage.setItem('roles', JSON.stringify(roles));
  localStorage.setItem('email', extra.email ?? `${role}@demo.test`);
  localStorage.setItem('id', extra.id ?? String(USER_TYPES[role]));
  localStorage.setItem('first_name', extra.first_name ?? 'Demo');
  localStorage.setItem('last_name', extra.last_name ?? role);
}

const mounted: ReturnType<typeof createMemoryRouter>[] = [];
afterEach(() => {
  for (const router of mounted.splice(0)) router.dispose();
});

/** Renders the real router and providers at `path`; returns the router to read the location. */
export function renderApp(path: string) {
  // as the app starts: a page opened at a route without parameters starts with that route alone
  const { routes, patchRoutesOnNavigation } = routerSetup(path.split(/[?#]/)[0]!);
  const router = createMemoryRouter(routes, { initialEntries: [path], patchRoutesOnNavigation });
  mounted.push(router);
  const utils = render(
    <Providers queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} flushSync={routerFlushSync} />
    </Providers>,
  );
  return { router, ...utils };
}

export function locationOf(router: ReturnType<typeof createMemoryRouter>): string {
  return router.state.location.pathname;
}
