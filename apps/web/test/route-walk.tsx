import { act, screen, waitFor } from '@testing-library/react';
import {
  counterpartOf,
  decideAccess,
  homeForRoles,
  MSG,
  type Role,
  WEB_ROUTES,
  type WebRoute,
} from '@trainlab/contract';
import { expect, it } from 'vitest';
import { titleForPath } from '../src/app/page-titles';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

/** `/training/start/:id` → `/training/start/sample-id` */
export function fillParams(pattern: string): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => `sample-${name.replace(/_/g, '-')}`);
}

const LANDING = new Set(['/', '/training-home']);
/** Pages that do their work and leave at once (spec: /end-meeting returns to the site root). */
const PASS_THROUGH = new Set(['/end-meeting/:slug']);
/** A shared address that opens the screen the visitor's role has for it (route-screens.test.tsx). */
const FORWARDS = new Set(['/training/:slug']);

async function expectOutcome(route: WebRoute, roles: Role[] | null, router: ReturnType<typeof renderApp>['router']) {
  const path = fillParams(route.path);
  // generous: the first visit of a screen loads its chunk, on a busy machine too
  const opts = { timeout: 8000, interval: 5 };
  switch (decideAccess(route, roles)) {
    case 'allow':
      if (PASS_THROUGH.has(route.path)) {
        // the site root sends a signed-in visitor on to their home: wait until that has happened too,
        // or the late redirect lands on the next route of the walk
        await waitFor(
          () =>
            roles ? expect(locationOf(router)).toBe(homeForRoles(roles)) : expect(locationOf(router)).not.toBe(path),
          opts,
        );
        expect(screen.queryByText(MSG.notAuthorized)).toBeNull();
        return;
      }
      if (FORWARDS.has(route.path)) {
        await waitFor(() => expect(locationOf(router)).not.toBe(path), opts);
        return;
      }
      if (roles && LANDING.has(route.path)) {
        // a signed-in visitor of the landing page goes to their home
        await waitFor(() => expect(locationOf(router)).toBe(homeForRoles(roles)), opts);
        return;
      }
      await waitFor(() => expect(document.title).toBe(`${titleForPath(route.path)} | TrainLab`), opts);
      expect(locationOf(router)).toBe(path);
      if (route.path !== '/not-authorized') expect(screen.queryByText(MSG.notAuthorized)).toBeNull();
      return;
    case 'not-authorized':
      await waitFor(() => expect(locationOf(router)).toBe('/not-authorized'), opts);
      expect(await screen.findByText(MSG.notAuthorized)).toBeInTheDocument();
      return;
    case 'counterpart': {
      // the same record on this role's own screen for it
      const target = fillParams(counterpartOf(route, roles ?? [])!);
      await waitFor(() => expect(locationOf(router)).toBe(target), opts);
      return;
    }
    case 'to-home':
      await waitFor(() => expect(locationOf(router)).toBe('/'), opts);
      expect(await screen.findByRole('heading', { name: 'Trending Courses' })).toBeInTheDocument();
      return;
    case 'to-login':
      await waitFor(() => expect(locationOf(router)).toBe('/login'), opts);
      expect(localStorage.getItem('redirect_link')).toBe(path);
      expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
      return;
  }
}

/**
 * Visits every route as one identity (null = anonymous) in one mounted app, the way a visitor
 * moves through it, and returns the paths whose outcome differs from `decideAccess`.
 */
export async function walkRoutes(routes: readonly WebRoute[], roles: Role[] | null): Promise<string[]> {
  const { router } = renderApp('/privacy-policy');
  const failures: string[] = [];
  for (const route of routes) {
    localStorage.removeItem('redirect_link');
    // a counterpart may already have brought the walk to this very path: arrive afresh
    if (locationOf(router) === fillParams(route.path)) await act(() => router.navigate('/privacy-policy'));
    document.title = '';
    await act(() => router.navigate(fillParams(route.path)));
    try {
      await expectOutcome(route, roles, router);
    } catch (error) {
      failures.push(`${route.path} (${decideAccess(route, roles)}): ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return failures;
}

/** One test per identity (null = anonymous): every path of WEB_ROUTES ends as decideAccess says. */
export function walkEveryRouteAs(identities: (Role | null)[]) {
  it.each(identities)('renders the outcome decideAccess decides for every path as %s', async (role) => {
    // data calls stay pending: the walk checks where each path lands, not what a screen does with data
    stubFetch({ 'end-meeting': () => ({ body: { message: 'ok' } }) }, { unknown: 'pending' });
    if (role) signIn([role]);
    const failures = await walkRoutes(WEB_ROUTES, role ? [role] : null);
    expect(failures).toEqual([]);
  }, 120_000);
}
