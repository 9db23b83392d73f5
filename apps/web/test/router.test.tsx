import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { decideAccess, MSG, ROLES, WEB_ROUTES } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';
import { fillParams, walkEveryRouteAs } from './route-walk';

describe('router generated from WEB_ROUTES', () => {
  walkEveryRouteAs([null, 'user', 'provider', 'provider_user']);

  it('covers each decision at least once across identities', () => {
    const seen = new Set<string>();
    for (const role of [null, ...ROLES]) {
      for (const route of WEB_ROUTES) seen.add(decideAccess(route, role ? [role] : null));
    }
    expect([...seen].sort()).toEqual(['allow', 'counterpart', 'not-authorized', 'to-home', 'to-login']);
  });

  it('sends an anonymous deep link to /login and keeps it for after login', async () => {
    stubFetch();
    const { router } = renderApp(fillParams('/conference/:slug'));
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    expect(localStorage.getItem('redirect_link')).toBe('/conference/sample-slug');
  });

  it.each(['/no-such-page', '/admin/unknown/deep', '/users/extra'])('%s shows the not-found screen', async (path) => {
    stubFetch();
    renderApp(path);
    expect(await screen.findByText(MSG.pageNotFound)).toBeInTheDocument();
  });

  it('shows not-found to a signed-in account too', async () => {
    stubFetch();
    signIn(['admin']);
    renderApp('/nothing-here');
    expect(await screen.findByText(MSG.pageNotFound)).toBeInTheDocument();
  });

  it('offers a Back button on /not-authorized that goes back', async () => {
    stubFetch();
    signIn(['user']);
    const { router } = renderApp('/users');
    await screen.findByText('Welcome, Demo user');
    await router.navigate('/admin/home');
    await waitFor(() => expect(locationOf(router)).toBe('/not-authorized'));
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/users'));
  });
});
