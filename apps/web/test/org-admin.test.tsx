import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const ORG = {
  id: 5,
  slug: 'globex',
  name: 'Globex',
  email: 'it@globex.test',
  description: null,
  status: 1,
  is_approved: 0,
  org_domain: 'globex.test',
  sp_link: null,
  ip_link: 'https://idp.globex.test',
  org_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
};
const PERSON = {
  id: 40,
  slug: 'pat-provider',
  first_name: 'Pat',
  last_name: 'Provider',
  email: 'pat@demo.test',
  mobile_no: '9876500000',
  status: 1,
  is_approved: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};
const SUBADMIN = {
  odid: 7,
  user_id: 41,
  slug: 'sam-sub',
  first_name: 'Sam',
  last_name: 'Sub',
  email: 'sam@acme.test',
  mobile_no: null,
  oname: 'Acme Learning Corp',
  lob: 'Healthcare',
  status: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};

async function confirmYes(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
}

describe('admin approval screens', () => {
  beforeEach(() => signIn(['admin']));

  it('dashboard shows pending requests linking to their queues and the totals', async () => {
    stubFetch({
      'admin/dashboard-data': () => ({
        body: {
          pending: { organizations: 2, providers: 1, organization_accounts: 3, sub_admins: 0 },
          totals: { organizations: 9, providers: 4, users: { user: 12, trainer: 3 }, trainings: 6 },
        },
      }),
    });
    renderApp('/admin/home');
    const link = await screen.findByRole('link', { name: 'Organizations to approve 2 waiting' });
    expect(link).toHaveAttribute('href', '/admin/approve-organizations');
    expect(screen.getByRole('link', { name: 'Sub-admin requests 0 waiting' })).toHaveAttribute(
      'href',
      '/admin/org-sub-admin-requests',
    );
    expect(screen.getByText('Users: Trainer')).toBeInTheDocument();
    expect(screen.getByText('9')).toBeInTheDocument();
    // every total says what it counts: approved providers beside every account of a kind
    expect(screen.getAllByTestId('stat-hint')).toHaveLength(5);
    expect(screen.getByText('Approved learning provider accounts.')).toBeInTheDocument();
    expect(screen.getByText('Learners who registered on their own.')).toBeInTheDocument();
  });

  it('organizations list shows badges and deactivates after confirmation', async () => {
    let status = 1;
    const net = stubFetch({
      'get-organizations': () => ({
        body: { list: [{ ...ORG, is_approved: 1, status }], total: 1, page: 1, per_page: 20 },
      }),
      'org-status': (b) => {
        status = Number(b.status);
        return { body: { message: 'Organization deactivated successfully!', org_id: 5, is_approved: 1, status } };
      },
    });
    renderApp('/admin/organizations');
    const user = userEvent.setup();
    expect(await screen.findByText('globex.test')).toBeInTheDocument();
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deactivate Globex' }));
    await confirmYes(user);
    await waitFor(() => expect(net.callsTo('org-status')[0]?.body).toEqual({ org_id: 5, status: 0 }));
    expect(await screen.findByText('Organization deactivated successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Activate Globex' })).toBeInTheDocument();
  });

  it('approve organizations: empty list shows No Data Found', async () => {
    stubFetch({ 'get-org-approve': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }) });
    renderApp('/admin/approve-organizations');
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
  });

  it('approve organizations: Yes sends is_approved 1 and goes to /admin/organizations', async () => {
    const net = stubFetch({
      'get-org-approve': () => ({ body: { list: [ORG], total: 1, page: 1, per_page: 20 } }),
      'get-organizations': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
      'org-approved': () => ({
        body: { message: 'Organization approved successfully!', org_id: 5, is_approved: 1, status: 1 },
      }),
    });
    const { router } = renderApp('/admin/approve-organizations');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Yes, approve Globex' }));
    await confirmYes(user);
    await waitFor(() => expect(locationOf(router)).toBe('/admin/organizations'));
    expect(net.callsTo('org-approved')[0]?.body).toEqual({ org_id: 5, is_approved: 1 });
  });

  it('a failed list shows the error text', async () => {
    stubFetch({ 'get-org-approve': () => ({ status: 500, body: {} }) });
    renderApp('/admin/approve-organizations');
    // a 500 is retried twice (with back-off) before the list shows its error
    expect((await screen.findAllByRole('alert', {}, { timeout: 8000 })).length).toBeGreaterThan(0);
  });

  it('learning providers: lists approved role 3 accounts with a View Users link', async () => {
    const net = stubFetch({
      'admin/get-users-list': () => ({
        body: { list: [{ ...PERSON, is_approved: 1 }], total: 1, page: 1, per_page: 20 },
      }),
    });
    renderApp('/admin/learning-providers');
    const link = await screen.findByRole('link', { name: 'View users of Pat Provider' });
    expect(link).toHaveAttribute('href', '/admin/learning-provider-users-list/pat-provider');
    expect(net.callsTo('admin/get-users-list')[0]?.body).toEqual({ role: 3, type: 'approved', page: 1, per_page: 20 });
  });

  it('provider users list asks by slug', async () => {
    const net = stubFetch({ 'admin/get-child-users-list': () => ({ body: { list: [PERSON] } }) });
    renderApp('/admin/learning-provider-users-list/pat-provider');
    expect(await screen.findByText('pat@demo.test')).toBeInTheDocument();
    expect(net.callsTo('admin/get-child-users-list')[0]?.body).toEqual({ slug: 'pat-provider' });
  });

  it('provider requests: accept sends status 1 and goes to /admin/learning-providers; organizations tab asks role 6', async () => {
    const net = stubFetch({
      'admin/get-users-list': (b) => ({
        body: { list: b.role === 3 ? [PERSON] : [], total: b.role === 3 ? 1 : 0, page: 1, per_page: 20 },
      }),
      'admin/update-learninig-provider-request': () => ({
        body: { message: 'Request accepted successfully!', is_approved: 1 },
      }),
    });
    const { router } = renderApp('/admin/learning-provider-requests');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Organization accounts' }));
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
    expect(net.callsTo('admin/get-users-list').some((c) => c.body.role === 6 && c.body.type === 'request')).toBe(true);
    await user.click(screen.getByRole('tab', { name: 'Learning providers' }));
    await user.click(await screen.findByRole('button', { name: 'Accept Pat Provider' }));
    await confirmYes(user);
    await waitFor(() => expect(locationOf(router)).toBe('/admin/learning-providers'));
    expect(net.callsTo('admin/update-learninig-provider-request')[0]?.body).toEqual({ id: 40, status: 1 });
  });

  it('sub-admin requests: reject sends status 0 and goes to /admin/org-sub-admin', async () => {
    const net = stubFetch({
      'admin/new-org-subadmin-request': (b) => ({ body: { list: b.type === 'request' ? [SUBADMIN] : [] } }),
      'admin/update-org-subadmin-request': () => ({
        body: { message: 'Request rejected successfully!', is_approved: 2 },
      }),
    });
    const { router } = renderApp('/admin/org-sub-admin-requests');
    const user = userEvent.setup();
    expect(await screen.findByText('Acme Learning Corp')).toBeInTheDocument();
    expect(screen.getByText('Healthcare')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reject Sam Sub' }));
    await confirmYes(user);
    await waitFor(() => expect(locationOf(router)).toBe('/admin/org-sub-admin'));
    expect(net.callsTo('admin/update-org-subadmin-request')[0]?.body).toEqual({ odid: 7, status: 0 });
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
  });
});
