import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ORG_MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

describe('register organization', () => {
  it('requires name, email, domain and IdP link in the browser', async () => {
    const net = stubFetch();
    renderApp('/register-organization');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The ip link field is required.')).toBeInTheDocument();
    expect(net.callsTo('create-organization')).toHaveLength(0);
  });

  it('sends the body, shows 422 under org_domain, then the success message and a login link', async () => {
    let attempt = 0;
    const net = stubFetch({
      'create-organization': () =>
        ++attempt === 1
          ? { status: 422, body: { org_domain: ['The org domain format is invalid.'] } }
          : { body: { message: ORG_MSG.organizationRegistered, id: 3, slug: 'globex' } },
    });
    renderApp('/register-organization');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Organization name/), 'Globex');
    await user.type(screen.getByLabelText(/^Email/), 'it@globex.test');
    await user.type(screen.getByLabelText(/^Organization domain/), 'bad domain');
    await user.type(screen.getByLabelText(/^IdP link/), 'https://idp.globex.test');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The org domain format is invalid.')).toBeInTheDocument();
    expect(net.callsTo('create-organization')[0]?.body).toEqual({
      name: 'Globex',
      email: 'it@globex.test',
      org_domain: 'bad domain',
      ip_link: 'https://idp.globex.test',
      sp_link: null,
      description: null,
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(ORG_MSG.organizationRegistered)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });
});

describe('add org sub-admin / user', () => {
  const units = (list: { id: number; name: string }[]) => () => ({ body: { list } });

  it('adds a branch through Add New, selects it, and proposes a sub-admin with it', async () => {
    signIn(['organization']);
    const branches = [{ id: 1, name: 'North' }];
    const net = stubFetch({
      'org/get-branches': () => ({ body: { list: branches } }),
      'org/get-departments': units([]),
      'org/get-sections': units([]),
      'org/add-branch': (b) => {
        branches.push({ id: 2, name: String(b.name) });
        return { body: { message: ORG_MSG.recordAdded, id: 2 } };
      },
      'org/add-org-subadmin': () => ({ body: { message: 'Sub-admin added; waits for approval.', id: 9, slug: 's' } }),
    });
    renderApp('/org/add-org-sub-admin');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add New Branch' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Branch name/), 'South');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Branch' })).toHaveValue('2'));
    expect(net.callsTo('org/add-branch')[0]?.body).toEqual({ name: 'South' });

    await user.type(screen.getByLabelText(/^First Name/), 'Sam');
    await user.type(screen.getByLabelText(/^Last Name/), 'Sub');
    await user.type(screen.getByLabelText(/^Email/), 'sam@acme.test');
    await user.type(screen.getByLabelText(/^Mobile No/), '9876500001');
    await user.click(screen.getByRole('button', { name: 'Create Admin' }));
    expect((await screen.findAllByText('Sub-admin added; waits for approval.'))[0]).toBeInTheDocument();
    expect(net.callsTo('org/add-org-subadmin')[0]?.body).toEqual({
      first_name: 'Sam',
      last_name: 'Sub',
      email: 'sam@acme.test',
      mobile_no: '9876500001',
      branch_id: 2,
      department_id: null,
      section_id: null,
    });
    expect(screen.getByLabelText(/^Email/)).toHaveValue('');
  });

  it('Organization user calls org/add-org-user and shows 422 under email', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'org/get-branches': units([]),
      'org/get-departments': units([{ id: 4, name: 'Sales' }]),
      'org/get-sections': units([]),
      'org/add-org-user': () => ({ status: 422, body: { email: [ORG_MSG.emailTaken] } }),
    });
    renderApp('/org/add-org-subadmin');
    const user = userEvent.setup();
    await user.click(await screen.findByText('Organization user'));
    const dept = screen.getByRole('combobox', { name: 'Department' });
    await waitFor(() => expect(within(dept).getByRole('option', { name: 'Sales' })).toBeInTheDocument());
    await user.selectOptions(dept, 'Sales');
    await user.type(screen.getByLabelText(/^First Name/), 'Uma');
    await user.type(screen.getByLabelText(/^Last Name/), 'User');
    await user.type(screen.getByLabelText(/^Email/), 'taken@acme.test');
    await user.type(screen.getByLabelText(/^Mobile No/), '9876500002');
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText(ORG_MSG.emailTaken)).toBeInTheDocument();
    expect(net.callsTo('org/add-org-user')[0]?.body.department_id).toBe(4);
  });
});
