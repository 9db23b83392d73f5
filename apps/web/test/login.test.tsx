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

  it("refuses with 'Your are already loged in' when a token is stored", async () => {
    const net = stubFetch({ login: providerLogin });
    signIn(['user']);
    renderApp('/login');
    const notice = await screen.findByTestId('already-notice');
    expect(notice).toHaveTextContent(MSG.alreadyLoggedIn);
    expect(screen.getByRole('link', { name: 'Go to your home' })).toHaveAttribute('href', '/users');
    await fillAndSubmit('user@demo.test', DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.alreadyLoggedIn);
    expect(net.callsTo('login')).toHaveLength(0);
  });

  it('shows a 422 message under its field', async () => {
    stubFetch({ login: () => ({ status: 422, body: { email: [MSG.invalidCredentials] } }) });
    renderApp('/login');
    await fillAndSubmit('nobody@demo.test', 'wrong-password');
    expect(await screen.findByText(MSG.invalidCredentials)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a 403 message at the top of the form', async () => {
    stubFetch({ login: () => ({ status: 403, body: { message: MSG.awaitingApproval } }) });
    renderApp('/login');
    await fillAndSubmit('org@demo.test', DEMO_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.awaitingApproval);
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
