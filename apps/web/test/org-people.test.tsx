import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ORG_MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

describe('users and trainers', () => {
  const USER = {
    id: 8,
    slug: 'liam',
    first_name: 'Liam',
    last_name: 'Learner',
    email: 'learner@demo.test',
    mobile_no: '9876543210',
    roles: ['provider_user'],
    status: 1,
  };

  it('users list shows rows with an Edit link; update sends the slug and returns to /users-list', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'get-all-lp-users': () => ({ body: { list: [USER] } }),
      'get-user-details': () => ({ body: { success: USER } }),
      'update-user-profile': () => ({ body: { message: ORG_MSG.recordUpdated, slug: 'liam' } }),
    });
    const { router } = renderApp('/users-list');
    const user = userEvent.setup();
    expect(await screen.findByText('Provider User')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Edit Liam Learner' }));
    const last = await screen.findByLabelText(/^Last Name/);
    await waitFor(() => expect(last).toHaveValue('Learner'));
    await user.clear(last);
    await user.type(last, 'Lee');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(locationOf(router)).toBe('/users-list'));
    expect(net.callsTo('update-user-profile')[0]?.body).toEqual({
      slug: 'liam',
      first_name: 'Liam',
      last_name: 'Lee',
      email: 'learner@demo.test',
      mobile_no: '9876543210',
    });
    expect(await screen.findByText(ORG_MSG.recordUpdated)).toBeInTheDocument();
  });

  it('trainer register shows 422 under mobile no, then toasts and goes to /trainer/list', async () => {
    signIn(['admin']);
    let attempt = 0;
    const net = stubFetch({
      'trainer-register': () =>
        ++attempt === 1
          ? { status: 422, body: { mobile_no: ['The mobile no format is invalid.'] } }
          : { body: { message: ORG_MSG.trainerRegistered, id: 30, slug: 't' } },
      'trainer-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
    });
    const { router } = renderApp('/trainer/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^First Name/), 'Tara');
    await user.type(screen.getByLabelText(/^Last Name/), 'Trainer');
    await user.type(screen.getByLabelText(/^Email/), 'tara@demo.test');
    await user.type(screen.getByLabelText(/^Mobile No/), '12');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The mobile no format is invalid.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(locationOf(router)).toBe('/trainer/list'));
    expect(await screen.findByText(ORG_MSG.trainerRegistered)).toBeInTheDocument();
    expect(net.callsTo('trainer-register')[1]?.body).toEqual({
      first_name: 'Tara',
      last_name: 'Trainer',
      email: 'tara@demo.test',
      mobile_no: '12',
    });
  });

  it('trainer list links Edit to /trainer/update/{id}; update loads by id and sends it', async () => {
    signIn(['admin']);
    const T = {
      id: 30,
      slug: 't',
      first_name: 'Tara',
      last_name: 'Trainer',
      email: 't@d.test',
      mobile_no: '1',
      status: 1,
    };
    const net = stubFetch({
      'trainer-list': () => ({ body: { list: [T], total: 1, page: 1, per_page: 20 } }),
      'get-trainer': () => ({ body: { success: T } }),
      'update-trainer': () => ({ body: { message: ORG_MSG.recordUpdated, slug: 't' } }),
    });
    const { router } = renderApp('/trainer/list');
    const user = userEvent.setup();
    const edit = await screen.findByRole('link', { name: 'Edit Tara Trainer' });
    expect(edit).toHaveAttribute('href', '/trainer/update/30');
    // the list is paged on the server
    expect(net.callsTo('trainer-list')[0]?.body).toEqual({ page: 1, per_page: 20 });
    await user.click(edit);
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveValue('t@d.test'));
    expect(net.callsTo('get-trainer')[0]?.body).toEqual({ id: 30 });
    expect(screen.getByRole('link', { name: /Back to trainers/ })).toHaveAttribute('href', '/trainer/list');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(locationOf(router)).toBe('/trainer/list'));
    expect(net.callsTo('update-trainer')[0]?.body).toMatchObject({ id: 30, first_name: 'Tara' });
  });
});

describe('organization homes', () => {
  it('/organization shows the name, counts and latest users', async () => {
    signIn(['organization']);
    stubFetch({
      'org/dashboard-data': () => ({
        body: {
          organization: { id: 1, slug: 'acme', name: 'Acme Learning Corp' },
          counts: {
            sub_admins: 2,
            pending_sub_admins: 1,
            organization_users: 5,
            departments: 3,
            branches: 4,
            sections: 0,
          },
          list: [
            {
              id: 9,
              slug: 'u',
              name: 'Uma User',
              email: 'uma@acme.test',
              role: 'organization_user',
              created_at: '2026-01-02T00:00:00Z',
            },
          ],
        },
      }),
    });
    renderApp('/organization');
    expect(await screen.findByRole('heading', { name: 'Acme Learning Corp' })).toBeInTheDocument();
    expect(screen.getByText('Pending sub-admins')).toBeInTheDocument();
    expect(await screen.findByText('uma@acme.test')).toBeInTheDocument();
    // each tile says what it counts; the list says it is the newest of the Users tile's people
    expect(screen.getAllByTestId('stat-hint')).toHaveLength(6);
    expect(screen.getByText('Every account of the organization: yours, sub-admins and members.')).toBeInTheDocument();
    expect(screen.getByTestId('latest-users-hint')).toHaveTextContent('The newest 1 of the 5 users counted above.');
    expect(screen.getByRole('link', { name: /Add sub-admin or user/ })).toHaveAttribute(
      'href',
      '/org/add-org-sub-admin',
    );
  });

  it('/ou/home shows organization, branch and quick links', async () => {
    signIn(['organization_user'], { first_name: 'Olive' });
    stubFetch({
      'ou/dashboard-data': () => ({
        body: { success: { organization: 'Acme Learning Corp', branch: 'North', department: null, section: null } },
      }),
    });
    renderApp('/ou/home');
    expect(await screen.findByText('Acme Learning Corp')).toBeInTheDocument();
    expect(screen.getByText('North')).toBeInTheDocument();
    expect(screen.getAllByText('Not assigned')).toHaveLength(2);
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'My Courses' })).toHaveAttribute('href', '/user/courses/list');
  });
});
