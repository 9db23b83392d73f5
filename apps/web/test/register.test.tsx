import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubFetch } from './fetch-stub';
import { DEMO_PASSWORD, locationOf, renderApp } from './render-app';

const ORGS = [
  { id: 11, name: 'Acme Corp' },
  { id: 12, name: 'Globex' },
];
const LOBS = [
  { id: 21, name: 'Banking' },
  { id: 22, name: 'Retail' },
];

/** Answers like the server: type 2 is active at once, other types wait for approval. */
const register: StubHandler = (body) => ({
  body: {
    success: {
      token: body.user_type === 2 ? 'tok-new' : '',
      roles: [body.user_type === 2 ? 'user' : body.user_type === 3 ? 'provider' : 'organization'],
      role: 'user',
      first_name: body.first_name,
      last_name: body.last_name,
      email: body.email,
      mobile_no: body.mobile_no,
      slug: 'new-account',
      _id: 99,
    },
    message: body.user_type === 2 ? MSG.registeredUser : MSG.registeredAwaitingApproval,
  },
});

function stubRegister(handler: StubHandler = register) {
  return stubFetch({
    register: handler,
    'get-org-register': () => ({ body: { list: ORGS } }),
    'get-line-of-business': () => ({ body: { list: LOBS } }),
  });
}

async function fillPerson(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^First name/), 'Nia');
  await user.type(screen.getByLabelText(/^Last name/), 'Newcomer');
  await user.type(screen.getByLabelText(/^Email/), 'nia@demo.test');
  await user.type(screen.getByLabelText(/^Password/), DEMO_PASSWORD);
  await user.type(screen.getByLabelText(/^Mobile no/), '9876543210');
}

describe('register page', () => {
  it('is titled Register Account and shows organization and line of business only for type 6', async () => {
    const net = stubRegister();
    renderApp('/register');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Register Account' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /^Organization/ })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Learning Provider' }));
    expect(screen.queryByRole('combobox', { name: /^Organization/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /^Line of business/ })).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Organization' }));
    const org = await screen.findByRole('combobox', { name: /^Organization/ });
    await waitFor(() => expect(within(org).getByRole('option', { name: 'Globex' })).toBeInTheDocument());
    const lob = screen.getByRole('combobox', { name: /^Line of business/ });
    await waitFor(() => expect(within(lob).getByRole('option', { name: 'Retail' })).toBeInTheDocument());
    expect(net.callsTo('get-org-register')).toHaveLength(1);

    await user.click(screen.getByRole('radio', { name: 'User' }));
    expect(screen.queryByRole('combobox', { name: /^Organization/ })).toBeNull();
  });

  it('sends org_id and lob_id for an organization', async () => {
    const net = stubRegister();
    renderApp('/register');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Organization' }));
    const org = await screen.findByRole('combobox', { name: /^Organization/ });
    await waitFor(() => expect(within(org).getByRole('option', { name: 'Globex' })).toBeInTheDocument());
    await user.selectOptions(org, 'Globex');
    const lob = screen.getByRole('combobox', { name: /^Line of business/ });
    await waitFor(() => expect(within(lob).getByRole('option', { name: 'Retail' })).toBeInTheDocument());
    await user.selectOptions(lob, 'Retail');
    await fillPerson(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(net.callsTo('register')).toHaveLength(1));
    expect(net.callsTo('register')[0]?.body).toEqual({
      first_name: 'Nia',
      last_name: 'Newcomer',
      email: 'nia@demo.test',
      password: DEMO_PASSWORD,
      mobile_no: '9876543210',
      user_type: 6,
      org_id: 12,
      lob_id: 22,
    });
    expect(await screen.findByText(MSG.registeredAwaitingApproval)).toBeInTheDocument();
  });

  it('requires the account type and the fields in the browser', async () => {
    const net = stubRegister();
    renderApp('/register');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    expect(screen.getByText('Please choose an account type.')).toBeInTheDocument();
    expect(screen.getByText('The first name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The mobile no field is required.')).toBeInTheDocument();
    expect(net.callsTo('register')).toHaveLength(0);
  });

  it('shows 422 errors under each field', async () => {
    const errors = {
      user_type: ['The selected user type is invalid.'],
      first_name: ['The first name may not contain digits.'],
      last_name: ['The last name is too long.'],
      email: ['The email has already been taken.'],
      password: ['The password must be at least 8 characters.'],
      mobile_no: ['The mobile no must be a valid phone number.'],
    };
    stubRegister(() => ({ status: 422, body: errors }));
    renderApp('/register');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'User' }));
    await fillPerson(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    for (const [field, [message]] of Object.entries(errors)) {
      expect(await screen.findByText(message as string), field).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('The email has already been taken.');
    expect(screen.getByLabelText(/^Mobile no/)).toHaveAccessibleDescription(
      'The mobile no must be a valid phone number.',
    );
  });

  it('shows org_id and lob_id errors under the organization selects', async () => {
    stubRegister(() => ({
      status: 422,
      body: { org_id: ['The org id field is required.'], lob_id: ['The lob id field is required.'] },
    }));
    renderApp('/register');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Organization' }));
    const org = await screen.findByRole('combobox', { name: /^Organization/ });
    await waitFor(() => expect(within(org).getByRole('option', { name: 'Acme Corp' })).toBeInTheDocument());
    await user.selectOptions(org, 'Acme Corp');
    const lob = screen.getByRole('combobox', { name: /^Line of business/ });
    await waitFor(() => expect(within(lob).getByRole('option', { name: 'Banking' })).toBeInTheDocument());
    await user.selectOptions(lob, 'Banking');
    await fillPerson(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The org id field is required.')).toBeInTheDocument();
    expect(org).toHaveAccessibleDescription('The org id field is required.');
    expect(lob).toHaveAccessibleDescription('The lob id field is required.');
  });

  it.each([
    ['User', MSG.registeredUser],
    ['Learning Provider', MSG.registeredAwaitingApproval],
  ])('type %s shows its success message and then opens /login with it', async (type, message) => {
    stubRegister();
    const { router } = renderApp('/register');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: type }));
    await fillPerson(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(locationOf(router)).toBe('/register');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1600));
    });
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
