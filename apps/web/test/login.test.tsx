import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LOGIN_ERROR_CLEAR_MS, MSG } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { DEMO_PASSWORD, locationOf, renderApp, signIn } from './render-app';

const providerLogin = () => ({
  body: {
    success: {
      token: 'tok-provider',
      roles: ['provider'],
      role: 'provider',
      first_name: 'Pat',
      last_name: 'Provider',
      email: 'provider@demo.test',
      mobile_no: '9876543210',
      slug: 'pat-provider',
      _id: 3,
    },
  },
});

async function fillAndSubmit(email: string, password?: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^Email/), email);
  if (password !== undefined) await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('login page', () => {
  it('stores the session and goes to the role home', async () => {
    const net = stubFetch({ login: providerLogin });
    const { router } = renderApp('/login');
    await fillAndSubmit('provider@demo.test', DEMO_PASSWORD);
    await waitFor(() => expect(locationOf(router)).toBe('/learning-provider'));
    expect(net.callsTo('login')[0]?.body).toEqual({
      email: 'provider@demo.test',
      password: DEMO_PASSWORD,
      is_previous: true,
      is_sso: false,
    });
    expect(localStorage.getItem('token')).toBe('tok-provider');
    expect(JSON.parse(localStorage.getItem('roles') ?? '[]')).toEqual(['provider']);
    expect(localStorage.getItem('email')).toBe('provider@demo.test');
    expect(localStorage.getItem('id')).toBe('3');
    expect(localStorage.getItem('first_name')).toBe('Pat');
    expect(localStorage.getItem('last_name')).toBe('Provider');
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeInTheDocument();
  });

  it('goes to the stored redirect_link instead, and forgets it', async () => {
    stubFetch({ login: providerLogin });
    localStorage.setItem('redirect_link', '/conference/python-basics');
    const { router } = renderApp('/login');
    await fillAndSubmit('provider@demo.test', DEMO_PASSWORD);
    await waitFor(() => expect(locationOf(router)).toBe('/conference/python-basics'));
    expect(localStorage.getItem('redirect_link')).toBeNull();
  });

  it('hides the password when Login With Enterprise is checked and sends is_sso', async () => {
    const net = stubFetch({ login: providerLogin });
    renderApp('/login');
    const user = userEvent.setup();
    expect(await screen.findByLabelText(/^Password/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Logout Previous Account' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Login With Enterprise' }));
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    await user.type(screen.getByLabelText(/^Email/), 'provider@demo.test');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(net.callsTo('login')).toHaveLength(1));
    expect(net.callsTo('login')[0]?.body).toMatchObject({ is_sso: true, password: '' });
  });

  it("refuses with 'Your are already loged in' when a token is stored and Logout Previous Account is unticked", async () => {
    const net = stubFetch({ login: providerLogin });
    signIn(['user']);
    renderApp('/login');
    const notice = await screen.findByTestId('already-notice');
    expect(notice).toHaveTextContent(MSG.alreadyLoggedIn);
    expect(screen.getByRole('link', { name: 'Go to your home' })).toHaveAttribute('href', '/users');
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Logout Previous Account' }));
    await fillAndSubmit('user@demo.test', DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.alreadyLoggedIn);
    expect(net.callsTo('login')).toHaveLength(0);
    expect(net.callsTo('logout')).toHaveLength(0);
    expect(localStorage.getItem('token')).toBe('token-user');
  });

  it('with Logout Previous Account ticked, signs the stored account out and the new one in', async () => {
    const net = stubFetch({ login: providerLogin, logout: () => ({ body: { message: MSG.loggedOut } }) });
    signIn(['user']);
    const { router } = renderApp('/login');
    expect(await screen.findByTestId('already-notice')).toHaveTextContent('user@demo.test is signed out first');
    expect(screen.getByRole('checkbox', { name: 'Logout Previous Account' })).toBeChecked();
    await fillAndSubmit('provider@demo.test', DEMO_PASSWORD);
    await waitFor(() => expect(locationOf(router)).toBe('/learning-provider'));
    // the old token is revoked on the server first, then the login goes without it
    expect(net.calls.map((c) => c.path).filter((p) => p === 'logout' || p === 'login')).toEqual(['logout', 'login']);
    expect(net.callsTo('logout')[0]?.headers.Authorization).toBe('Bearer token-user');
    expect(net.callsTo('login')[0]?.headers.Authorization).toBeUndefined();
    expect(localStorage.getItem('token')).toBe('tok-provider');
  });

  it('still signs in when the stored token was already revoked (logout answers 401), staying on the page', async () => {
    stubFetch({ login: providerLogin, logout: () => ({ status: 401, body: { message: 'Unauthenticated.' } }) });
    signIn(['user']);
    const { router } = renderApp('/login');
    await fillAndSubmit('provider@demo.test', DEMO_PASSWORD);
    await waitFor(() => expect(locationOf(router)).toBe('/learning-provider'));
    expect(localStorage.getItem('token')).toBe('tok-provider');
  });

  it('shows wrong credentials at the top of the form, not under Email', async () => {
    stubFetch({ login: () => ({ status: 422, body: { email: [MSG.invalidCredentials] } }) });
    renderApp('/login');
    await fillAndSubmit('nobody@demo.test', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.invalidCredentials);
    expect(screen.getByLabelText(/^Email/)).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows another 422 message under its field', async () => {
    stubFetch({ login: () => ({ status: 422, body: { email: ['The email must be a valid email address.'] } }) });
    renderApp('/login');
    await fillAndSubmit('nobody@demo', 'some-password');
    expect(await screen.findByText('The email must be a valid email address.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a 403 message at the top of the form', async () => {
    stubFetch({ login: () => ({ status: 403, body: { message: MSG.awaitingApproval } }) });
    renderApp('/login');
    await fillAndSubmit('org@demo.test', DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.awaitingApproval);
  });

  it('shows the same 403 message when the refusal carries its code (issue 42)', async () => {
    stubFetch({
      login: () => ({
        status: 403,
        body: { message: MSG.loggedInElsewhere, code: 'logged_in_elsewhere' },
        headers: { 'X-Error-Code': 'logged_in_elsewhere' },
      }),
    });
    renderApp('/login');
    await fillAndSubmit('org@demo.test', DEMO_PASSWORD);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MSG.loggedInElsewhere);
    expect(alert).not.toHaveTextContent('logged_in_elsewhere');
  });

  it('clears the login error after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubFetch({ login: () => ({ status: 500, body: { message: 'boom' } }) });
    renderApp('/login');
    fireEvent.change(await screen.findByLabelText(/^Email/), { target: { value: 'user@demo.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: DEMO_PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.internalError);
    act(() => {
      vi.advanceTimersByTime(LOGIN_ERROR_CLEAR_MS - 100);
    });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the message handed over by the previous page', async () => {
    stubFetch({ 'forgot-password': () => ({ body: { message: MSG.resetLinkSent } }) });
    const { router } = renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Email/), 'user@demo.test');
    await user.click(screen.getByRole('button', { name: 'Send Password Reset Link' }));
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    expect(screen.getAllByText(MSG.resetLinkSent).length).toBeGreaterThan(0);
  });
});
