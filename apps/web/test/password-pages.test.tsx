import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

describe('password pages', () => {
  it('reset password sends the token from the route and links back to /login', async () => {
    const net = stubFetch({ 'reset-password': () => ({ body: { message: MSG.passwordReset } }) });
    renderApp('/reset-password/abc123');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Password/), 'Better@12345');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Better@12345');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText(MSG.passwordReset)).toBeInTheDocument();
    expect(net.callsTo('reset-password')[0]?.body).toEqual({
      password: 'Better@12345',
      password_confirmation: 'Better@12345',
      i_t: 'abc123',
    });
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  it('change password shows per-field server errors, then success', async () => {
    let attempt = 0;
    stubFetch({
      'change-password': () =>
        attempt++ === 0
          ? { status: 422, body: { current_password: [MSG.currentPasswordWrong] } }
          : { body: { message: MSG.passwordChanged } },
    });
    signIn(['user']);
    renderApp('/change-password');
    const user = userEvent.setup();
    const fill = async () => {
      await user.type(await screen.findByLabelText(/^Current password/), 'Demo@12345');
      await user.type(screen.getByLabelText(/^New password/), 'Better@12345');
      await user.type(screen.getByLabelText(/^Confirm new password/), 'Better@12345');
      await user.click(screen.getByRole('button', { name: 'Change Password' }));
    };
    await fill();
    expect(await screen.findByText(MSG.currentPasswordWrong)).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Current password/));
    await user.clear(screen.getByLabelText(/^New password/));
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await fill();
    await waitFor(() => expect(screen.getByText(MSG.passwordChanged)).toBeInTheDocument());
  });
});
