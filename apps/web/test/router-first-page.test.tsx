import { screen, waitFor } from '@testing-library/react';
import { MSG, WEB_ROUTES } from '@trainlab/contract';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routerSetup } from '../src/app/routes';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

/** The page routes under the three frames (root → frame → page). */
const pageRoutes = (routes: readonly RouteObject[]) =>
  routes[0]?.children?.flatMap((frame) => frame.children ?? []) ?? [];
/** every route of the table, the web-only mailbox and the not-found page */
const WHOLE_TABLE = WEB_ROUTES.length + 2;

describe('the router of the first page', () => {
  it('starts with the opened route alone (and not-found) when it has no parameters', () => {
    for (const path of ['/', '/login', '/training-home', '/login/']) {
      const { routes, patchRoutesOnNavigation } = routerSetup(path);
      expect(pageRoutes(routes).map((r) => r.path)).toEqual([path.length > 1 ? path.replace(/\/$/, '') : path, '*']);
      expect(patchRoutesOnNavigation).toBeTypeOf('function');
    }
  });

  it('starts with the whole table at an address with parameters or unknown to the table', () => {
    for (const path of ['/training-register/docker', '/no-such-page']) {
      const { routes, patchRoutesOnNavigation } = routerSetup(path);
      expect(pageRoutes(routes)).toHaveLength(WHOLE_TABLE);
      expect(patchRoutesOnNavigation).toBeUndefined();
    }
  });

  it('receives the rest of the table at the first navigation: a public page, not-found, a signed-in home', async () => {
    stubFetch();
    const { router } = renderApp('/login');
    await screen.findByRole('button', { name: /^login$/i });
    expect(pageRoutes(router.routes)).toHaveLength(2);

    await router.navigate('/privacy-policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(pageRoutes(router.routes)).toHaveLength(WHOLE_TABLE);

    await router.navigate('/no-such-page');
    expect(await screen.findByText(MSG.pageNotFound)).toBeInTheDocument();

    signIn(['user']);
    await router.navigate('/users');
    expect(await screen.findByText('Welcome, Demo user')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/users');
  });

  it('sends a signed-in visitor of the landing to their home, a route it did not start with', async () => {
    stubFetch();
    signIn(['user']);
    const { router } = renderApp('/training-home');
    await waitFor(() => expect(locationOf(router)).toBe('/users'));
    expect(await screen.findByText('Welcome, Demo user')).toBeInTheDocument();
  });
});
