import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

describe('session checks', () => {
  it('logs out to / when current-token answers another token', async () => {
    const net = stubFetch({ 'current-token': () => ({ body: 'a-newer-token' }) });
    signIn(['provider'], { token: 'old-token', email: 'provider@demo.test' });
    const { router } = renderApp('/learning-provider');
    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('roles')).toBeNull();
    expect(net.callsTo('current-token')[0]?.body).toEqual({ email: 'provider@demo.test' });
    expect(await screen.findByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('logs out when current-token answers an empty string (revoked)', async () => {
    stubFetch({ 'current-token': () => ({ body: '' }) });
    signIn(['user']);
    const { router } = renderApp('/users');
    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('keeps a live session, and checks again when the window regains focus', async () => {
    let live = 'token-user';
    const net = stubFetch({ 'current-token': () => ({ body: live }) });
    signIn(['user']);
    const { router } = renderApp('/users');
    await screen.findByText('Welcome, Demo user');
    await waitFor(() => expect(net.callsTo('current-token')).toHaveLength(1));
    expect(localStorage.getItem('token')).toBe('token-user');

    live = '';
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('does not call current-token without a session', async () => {
    const net = stubFetch();
    renderApp('/privacy-policy');
    await screen.findByRole('heading', { name: 'Privacy Policy' });
    expect(net.callsTo('current-token')).toHaveLength(0);
  });

  it('a 401 from any call clears the session and goes to /', async () => {
    stubFetch({ 'change-password': () => ({ status: 401, body: { message: 'Unauthenticated.' } }) });
    signIn(['trainer']);
    const { router } = renderApp('/change-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'Demo@12345');
    await user.type(screen.getByLabelText(/^New password/), 'Better@12345');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better@12345');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('Logout calls logout with the token, clears storage and goes to /', async () => {
    const net = stubFetch({ logout: () => ({ body: { message: 'Logged out successfully!' } }) });
    signIn(['trainer'], { token: 'trainer-token' });
    const { router } = renderApp('/trainer-home');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(net.callsTo('logout')[0]?.body).toEqual({ token: 'trainer-token' });
    expect(net.callsTo('logout')[0]?.headers.Authorization).toBe('Bearer trainer-token');
    for (const key of ['token', 'roles', 'email', 'id', 'first_name', 'last_name']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });
});
