import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, REG_MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubFetch } from './fetch-stub';
import { renderApp } from './render-app';

const WELCOME = 'Welcome Nia! You are registered for Kubernetes Basics.';

function stubRegistration(
  register: StubHandler = () => ({ body: { message: WELCOME, slug: 'kube', existing_account: false } }),
) {
  return stubFetch({
    'mobile-otp-register': () => ({ body: { message: REG_MSG.mobileOtpSent } }),
    'email-otp-register': () => ({ body: { message: REG_MSG.emailOtpSent } }),
    'verify-mobile-otp': (b) =>
      b.mobile_otp === '123456'
        ? { body: { message: MSG.mobileVerified, success: MSG.otpVerified } }
        : { status: 422, body: { mobile_otp: [MSG.incorrectOtp] } },
    'verify-email-otp': (b) =>
      b.email_otp === '654321'
        ? { body: { message: MSG.emailVerified, success: MSG.otpVerified } }
        : { status: 422, body: { email_otp: [MSG.incorrectOtp] } },
    'register-training-student': register,
  });
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/^First name/), 'Nia');
  await user.type(screen.getByLabelText(/^Last name/), 'Newcomer');
  await user.type(screen.getByLabelText(/^Email(\s*\*)?$/), 'nia@demo.test');
  await user.type(screen.getByLabelText(/^Mobile no/), '9876543210');
}

async function verifyBoth(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Send OTP to email' }));
  await user.click(screen.getByRole('button', { name: 'Send OTP to mobile' }));
  await user.type(screen.getByLabelText('Email OTP'), '654321');
  await user.click(screen.getByRole('button', { name: 'Verify email OTP' }));
  expect(await screen.findByText(MSG.emailVerified)).toBeInTheDocument();
  await user.type(screen.getByLabelText('Mobile OTP'), '123456');
  await user.click(screen.getByRole('button', { name: 'Verify mobile OTP' }));
  expect(await screen.findByText(MSG.mobileVerified)).toBeInTheDocument();
}

describe('/training-register/:slug', () => {
  it('sends both codes, verifies them, submits the whole body and shows the welcome with a Login link', async () => {
    const net = stubRegistration();
    renderApp('/training-register/kube');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Training Registration' })).toBeInTheDocument();
    await fill(user);
    await verifyBoth(user);
    expect(net.callsTo('email-otp-register')[0]?.body).toEqual({ email: 'nia@demo.test', first_name: 'Nia' });
    expect(net.callsTo('mobile-otp-register')[0]?.body).toEqual({ mobile_no: '9876543210' });
    expect(net.callsTo('verify-email-otp')[0]?.body).toEqual({ email: 'nia@demo.test', email_otp: '654321' });
    expect(net.callsTo('verify-mobile-otp')[0]?.body).toEqual({ mobile_no: '9876543210', mobile_otp: '123456' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(WELCOME)).toBeInTheDocument();
    expect(net.callsTo('register-training-student')[0]?.body).toEqual({
      first_name: 'Nia',
      last_name: 'Newcomer',
      email: 'nia@demo.test',
      mobile_no: '9876543210',
      email_otp: '654321',
      mobile_otp: '123456',
      slug: 'kube',
    });
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });

  it('a wrong code shows Incorrect OTP try again under the OTP field', async () => {
    stubRegistration();
    renderApp('/training-register/kube');
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send OTP to mobile' }));
    expect(await screen.findByText(REG_MSG.mobileOtpSent)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Mobile OTP'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify mobile OTP' }));
    expect(await screen.findByText(MSG.incorrectOtp)).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile OTP')).toHaveAttribute('aria-invalid', 'true');
  });

  it('Submit before verifying shows the Verify Email Or Mobile No. banner and calls nothing', async () => {
    const net = stubRegistration();
    renderApp('/training-register/kube');
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(MSG.verifyEmailOrMobile)).toBeInTheDocument();
    expect(net.callsTo('register-training-student')).toHaveLength(0);
  });

  it('requires every field', async () => {
    const net = stubRegistration();
    renderApp('/training-register/kube');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The first name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The mobile no field is required.')).toBeInTheDocument();
    expect(net.calls.filter((c) => c.path !== 'current-token')).toHaveLength(0);
  });

  it('a 404 (unknown or not public training) says so; a 422 lands under its field', async () => {
    let attempt = 0;
    stubRegistration(() =>
      ++attempt === 1
        ? { status: 404, body: { message: 'Not Found' } }
        : { status: 422, body: { email: [REG_MSG.alreadyEnrolled] } },
    );
    renderApp('/training-register/kube');
    const user = userEvent.setup();
    await fill(user);
    await verifyBoth(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(/not open for registration/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(REG_MSG.alreadyEnrolled)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/not open for registration/)).toBeNull());
  });
});
