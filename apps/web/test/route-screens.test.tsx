import { screen, waitFor } from '@testing-library/react';
import { MSG, type Role, WEB_ROUTES } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { screenFor } from '../src/app/page-registry';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

describe('every route leads somewhere', () => {
  it('each route of the contract’s table has a screen of its own (none falls back to not-found)', () => {
    const without = WEB_ROUTES.map((r) => r.path).filter((p) => screenFor(p) === undefined);
    expect(without).toEqual([]);
  });

  it("/recording without a recording says 'Recording Not Available', signed in or not", async () => {
    signIn(['user']);
    const net = stubFetch();
    const first = renderApp('/recording');
    expect(await screen.findByText(MSG.recordingNotAvailable)).toBeInTheDocument();
    expect(net.callsTo('get-recording')).toEqual([]);
    first.unmount();

    localStorage.clear();
    stubFetch();
    renderApp('/recording');
    expect(await screen.findByText(MSG.recordingNotAvailable)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it.each<[Role, string]>([
    ['provider', '/training-details/react-basics'],
    ['organization', '/training-details/react-basics'],
    ['org_subadmin', '/training-details/react-basics'],
    ['trainer', '/training-details/react-basics'],
    ['user', '/user/training-details/react-basics'],
    ['provider_user', '/user/training-details/react-basics'],
    ['organization_user', '/user/training-details/react-basics'],
    ['admin', '/not-authorized'],
  ])('/training/:slug opens the training’s screen for a %s: %s', async (role, to) => {
    signIn([role]);
    stubFetch({}, { unknown: 'pending' });
    const { router } = renderApp('/training/react-basics');
    await waitFor(() => expect(locationOf(router)).toBe(to));
    // the screen it opened has rendered (its chunk loaded) before the test ends
    const title = to === '/not-authorized' ? 'Not Authorized' : 'Training Details';
    await waitFor(() => expect(document.title).toBe(`${title} | TrainLab`), { timeout: 8000 });
  });

  it('/training/:slug keeps a slug that spells another path inside the training’s screen', async () => {
    signIn(['provider']);
    stubFetch({}, { unknown: 'pending' });
    const { router } = renderApp('/training/..%2F..%2Fadmin%2Fhome');
    await waitFor(() => expect(locationOf(router)).toBe('/training-details/..%2F..%2Fadmin%2Fhome'));
    await waitFor(() => expect(document.title).toBe('Training Details | TrainLab'), { timeout: 8000 });
  });

  it('/training/:slug without a session goes to /login and comes back after it', async () => {
    stubFetch();
    const { router } = renderApp('/training/react-basics');
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    expect(localStorage.getItem('redirect_link')).toBe('/training/react-basics');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});
