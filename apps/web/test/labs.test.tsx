import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const PRICING = {
  list: [2, 4, 8, 16, 32].map((m, i) => ({
    id: i + 1,
    memory: m,
    virtual_cpu: 1,
    linux: m,
    windows: m * 2,
    cl_linux_price: 0,
    cl_windows_price: 0,
  })),
  storage_price: 0,
  cl_storage_price: 0,
};
const VM = (over: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'Ubuntu lab',
  vm_name: 'tl-0123456789',
  image: 'ubuntu',
  protocol: 'ssh',
  zone: 'asia-south1-a',
  ram: 2,
  storage: 10,
  created: '2026-11-20T10:00:00.000Z',
  status: 2,
  engine: 'local',
  assigned_user: { id: 9, first_name: 'Liam', last_name: 'Learner', email: 'l@example.test' },
  assigned_at: '2026-11-20T10:05:00.000Z',
  last_activity_at: null,
  ...over,
});

describe('/create-vm', () => {
  it('without a lab account it sends the manager to /register-cloud-account', async () => {
    signIn(['provider']);
    stubFetch({
      'check-gc-ac-exist': () => ({ body: { exist: 0, authorized: 0, username: null } }),
      'get-pricing': () => ({ body: PRICING }),
    });
    const { router } = renderApp('/create-vm');
    await waitFor(() => expect(locationOf(router)).toBe('/register-cloud-account'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Register Cloud Account' })).toBeInTheDocument();
    // the way there says why, and where it leads
    expect(screen.getByText('A lab account comes first')).toBeInTheDocument();
    expect(screen.getByText(/you will be taken back to Create VM/)).toBeInTheDocument();
  });

  it('the price follows RAM a second after input; Windows fixes rdp and 50 GB; success goes to /vm-list', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'check-gc-ac-exist': () => ({ body: { exist: 1, authorized: 1, username: 'labs' } }),
      'get-pricing': () => ({ body: PRICING }),
      'gc-create-vm': () => ({
        body: {
          message: MSG.vmCreated,
          list: [{ name: 'windows 4 GB', vm_name: 'tl-aa', username: 'tllab_aa', password: 'Secret-Once-1@' }],
        },
      }),
      'vm-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
      'get-vm-count': () => ({ body: { count: 0, running: 0, stopped: 0, assigned: 0, unassigned: 0 } }),
    });
    const { router } = renderApp('/create-vm');
    const price = await screen.findByTestId('vm-price', {}, { timeout: 3000 });
    expect(price).toHaveTextContent('₹2.00 per hour');
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Operating System' }));
    await user.click(await screen.findByRole('option', { name: 'Windows' }));
    expect(screen.getByRole('textbox', { name: 'Protocol' })).toHaveValue('rdp');
    expect(screen.getByRole('textbox', { name: /Storage/ })).toHaveValue('50');
    // RAM moves up to Windows' minimum 4 GB: 4 × 2 = ₹8.00 once the input settles
    await waitFor(() => expect(screen.getByTestId('vm-price')).toHaveTextContent('₹8.00 per hour'), { timeout: 3000 });
    await user.click(screen.getByRole('button', { name: 'Create VM' }));
    await waitFor(() => expect(locationOf(router)).toBe('/vm-list'));
    const sent = net.calls.find((c) => c.path === 'gc-create-vm')!.body;
    expect(sent).toMatchObject({ image: 'windows', protocol: 'rdp', ram: 4, storage: 50, count: 1 });
    // the password is shown once, on arrival at the list
    expect(await screen.findByText('Secret-Once-1@')).toBeInTheDocument();
  });
});

describe('one price from the admin’s sheet to the bill (issue 41)', () => {
  const SPEC_PRICES = {
    list: [
      { id: 1, memory: 2, virtual_cpu: 1, linux: 0.03, windows: 0.07, cl_linux_price: 0.024, cl_windows_price: 0.056 },
      { id: 2, memory: 4, virtual_cpu: 2, linux: 0.05, windows: 0.2, cl_linux_price: 0.04, cl_windows_price: 0.16 },
    ],
    storage_price: 0.17,
    cl_storage_price: 0.136,
  };

  it('the create form shows the price per hour charged, and storage per month as such', async () => {
    signIn(['provider']);
    stubFetch({
      'check-gc-ac-exist': () => ({ body: { exist: 1, authorized: 1, username: 'labs' } }),
      'get-pricing': () => ({ body: SPEC_PRICES }),
    });
    renderApp('/create-vm');
    // 2 GB Linux, 10 GB: ₹0.03 machine + ₹1.70 a month of storage (₹0.0024 an hour) = ₹0.0324 an hour
    const price = await screen.findByTestId('vm-price', {}, { timeout: 3000 });
    expect(price).toHaveTextContent('₹0.0324 per hour while it runs');
    expect(screen.getByTestId('vm-price-parts')).toHaveTextContent(
      'Machine ₹0.03 per hour + storage ₹1.70 per month (10 GB), charged as ₹0.0024 per running hour',
    );
    // the cloud prices are the platform's cost, not the customer's: ₹0.054 (0.03 + 0.024) is nowhere
    expect(price).not.toHaveTextContent('0.05');
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: 'Count' }));
    await user.type(screen.getByRole('textbox', { name: 'Count' }), '3');
    await waitFor(() => expect(screen.getByTestId('vm-price')).toHaveTextContent('₹0.0972 per hour for 3 VMs'), {
      timeout: 3000,
    });
  });

  it('VM Details says how its price is made and how a run is costed; badges name states', async () => {
    signIn(['provider']);
    stubFetch({
      'vm-details': () => ({
        body: {
          data: {
            ...VM({ ram: 4, storage: 20, status: 0 }),
            hourly_price: 0.0547,
            price: { machine_per_hour: 0.05, storage_per_month: 3.4, storage_per_hour: 0.0047 },
            username: 'tllab_0123456789',
          },
          usage: [],
          total_cost: 0,
          total_cost_paise: 0,
          used_min: 0,
        },
      }),
    });
    renderApp('/vm-details/tl-0123456789');
    expect(await screen.findByText('₹0.0547 per hour')).toBeInTheDocument();
    expect(screen.getByTestId('vm-price-rule')).toHaveTextContent(
      '₹0.0547 per hour = machine ₹0.05 per hour + storage ₹3.40 per month (₹0.0047 per running hour)',
    );
    // a lab just created has not run: not 'Create', not 'Stopped'
    expect(screen.getByText('Not started')).toBeInTheDocument();
  });

  it('the list counts a lab just created as Not started, apart from Stopped', async () => {
    signIn(['provider']);
    stubFetch({
      'vm-list': () => ({
        body: {
          list: [VM({ status: 0 }), VM({ id: 2, name: 'Running lab', vm_name: 'tl-running', status: 1 })],
          total: 2,
          page: 1,
          per_page: 20,
        },
      }),
      'get-vm-count': () => ({
        body: { count: 2, running: 1, stopped: 0, not_started: 1, assigned: 2, unassigned: 0 },
      }),
    });
    renderApp('/vm-list');
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Not started')).toBeInTheDocument();
    expect(within(table).getByText('Running')).toBeInTheDocument();
    const tile = (label: string) => screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent;
    expect(tile('Stopped')).toBe('0');
    expect(tile('Not started')).toBe('1');
  });

  it('/authorize-cloud-account after registering: the account is ready, one click back to Create VM', async () => {
    signIn(['provider']);
    stubFetch({ 'check-gc-ac-exist': () => ({ body: { exist: 1, authorized: 1, username: 'labs' } }) });
    renderApp('/authorize-cloud-account');
    expect(await screen.findByText('Your lab account is ready')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to Create VM' })).toHaveAttribute('href', '/create-vm');
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
  });

  it('/register-cloud-account says why a second account', async () => {
    signIn(['provider']);
    stubFetch({ 'check-gc-ac-exist': () => ({ body: { exist: 0, authorized: 0, username: null } }) });
    renderApp('/register-cloud-account');
    expect(await screen.findByText(/Why a second account\?/)).toBeInTheDocument();
    expect(screen.getByText(/Registering it also signs it in/)).toBeInTheDocument();
  });
});

describe('/vm-list and /vm-details/{name}', () => {
  it('lists VMs with status and a start/stop toggle (stop when running, otherwise start)', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'vm-list': () => ({
        body: {
          list: [VM(), VM({ id: 2, name: 'Running lab', vm_name: 'tl-running', status: 1 })],
          total: 2,
          page: 1,
          per_page: 20,
        },
      }),
      'get-vm-count': () => ({ body: { count: 2, running: 1, stopped: 1, assigned: 2, unassigned: 0 } }),
      'vm-start-stop': () => ({ body: { message: MSG.vmUpdated, status: 1 } }),
    });
    renderApp('/vm-list');
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Ubuntu lab')).toBeInTheDocument();
    expect(within(table).getAllByText('Liam Learner')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Start Ubuntu lab' }));
    await userEvent.click(screen.getByRole('button', { name: 'Stop Running lab' }));
    await waitFor(() =>
      expect(net.calls.filter((c) => c.path === 'vm-start-stop').map((c) => c.body)).toEqual([
        { action: 'start', name: 'tl-0123456789', is_user: 0 },
        { action: 'stop', name: 'tl-running', is_user: 0 },
      ]),
    );
  });

  it('details show the usage rows with minutes and cost', async () => {
    signIn(['provider']);
    stubFetch({
      'vm-details': () => ({
        body: {
          data: { ...VM(), hourly_price: 0.06, username: 'tllab_0123456789' },
          usage: [
            {
              id: 1,
              first_name: 'Liam',
              last_name: 'Learner',
              vm_start: null,
              vm_stop: null,
              used_min: 0,
              cost: 0,
              cost_paise: 0,
              status: 1,
              paid: 0,
            },
            {
              id: 2,
              first_name: 'Liam',
              last_name: 'Learner',
              vm_start: '2026-11-20T10:45:00.000Z',
              vm_stop: '2026-11-20T11:30:00.000Z',
              used_min: 45,
              cost: 67.5,
              cost_paise: 6750,
              status: 3,
              paid: 0,
            },
          ],
          total_cost: 67.5,
          total_cost_paise: 6750,
          used_min: 45,
        },
      }),
    });
    renderApp('/vm-details/tl-0123456789');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows[2]).toHaveTextContent('Stop');
    expect(rows[2]).toHaveTextContent('45');
    expect(rows[2]).toHaveTextContent('₹67.50');
    expect(screen.getByText('tllab_0123456789')).toBeInTheDocument();
  });
});

describe('/vm/{name}', () => {
  it('an engine problem is shown and Start Connection is disabled', async () => {
    signIn(['provider_user']);
    stubFetch({
      'vm-connection': () => ({
        body: {
          vm_name: 'tl-0123456789',
          name: 'Ubuntu lab',
          image: 'ubuntu',
          protocol: 'ssh',
          status: 2,
          width: 1296,
          height: 765,
          terminal: true,
          desktop: true,
          rdp: false,
          problem: 'The local lab engine needs the Debian packages openssh-server tigervnc-standalone-server xterm',
          username: 'tllab_0123456789',
        },
      }),
    });
    renderApp('/vm/tl-0123456789');
    expect(await screen.findByText(/needs the Debian packages/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Connection' })).toBeDisabled();
    expect(screen.getByText(/Display 1296×765/)).toBeInTheDocument();
  });

  const CONNECTION = (over: Record<string, unknown> = {}) => ({
    vm_name: 'tl-0123456789',
    name: 'Ubuntu lab',
    image: 'ubuntu',
    protocol: 'ssh',
    status: 2,
    width: 1296,
    height: 765,
    // no remote access in the test (the memory engine): the page's own behaviour is what is tested
    terminal: false,
    desktop: false,
    rdp: false,
    problem: null,
    username: 'tllab_0123456789',
    ...over,
  });

  it('?start=1 (the dashboard’s Start VM) starts the lab in one click; a refused start shows its message', async () => {
    signIn(['provider_user']);
    let status = 2;
    const net = stubFetch({
      'vm-connection': () => ({ body: CONNECTION({ status }) }),
      'vm-start-stop': () => {
        status = 1;
        return { body: { message: MSG.vmUpdated, status: 1 } };
      },
    });
    renderApp('/vm/tl-0123456789?start=1');
    expect(await screen.findByRole('button', { name: 'Close Connection' })).toBeInTheDocument();
    expect(net.callsTo('vm-start-stop')).toHaveLength(1);
    expect(net.callsTo('vm-start-stop')[0]!.body).toMatchObject({ action: 'start', name: 'tl-0123456789', is_user: 1 });
    expect(screen.getByRole('link', { name: 'Back to your dashboard' })).toHaveAttribute('href', '/lpu-home');

    signIn(['provider_user']);
    stubFetch({
      'vm-connection': () => ({ body: CONNECTION() }),
      'vm-start-stop': () => ({ status: 422, body: { other_error: [MSG.labCapHours] } }),
    });
    renderApp('/vm/tl-0123456789?start=1');
    expect(await screen.findByText(MSG.labCapHours)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Connection' })).toBeEnabled();
  });

  it('closing a running lab asks whether to stop it: Stop the VM stops it and returns to the list', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'vm-connection': () => ({ body: CONNECTION({ status: 1 }) }),
      'vm-start-stop': () => ({ body: { message: MSG.vmUpdated, status: 2 } }),
      'vm-list': () => ({ body: { list: [], total: 0 } }),
      'get-vm-count': () => ({ body: { count: 0, running: 0, stopped: 0, assigned: 0, unassigned: 0 } }),
    });
    const { router } = renderApp('/vm/tl-0123456789');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Connection' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Close Connection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop the VM too?' });
    expect(within(dialog).getByText(/billed by the hour/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop the VM' }));
    await waitFor(() => expect(locationOf(router)).toBe('/vm-list'));
    expect(net.callsTo('vm-start-stop').map((c) => c.body.action)).toEqual(['stop']);
  });

  it('a 404 (not the assigned learner) shows the error, not the lab', async () => {
    signIn(['provider_user']);
    stubFetch({ 'vm-connection': () => ({ status: 404, body: { message: 'Not Found' } }) });
    renderApp('/vm/tl-someone-else');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Connection' })).toBeNull();
  });
});

describe('assign a VM to one learner', () => {
  it('picking an existing learner fills the form; a new person can still be typed', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'vm-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 100 } }),
      'get-tenant-learners': () => ({
        body: {
          list: [{ id: 5, first_name: 'Ravi', last_name: 'Kumar', email: 'ravi@demo.test', mobile_no: '9000000002' }],
          total: 1,
          page: 1,
          per_page: 20,
        },
      }),
      'assign-vm-to-user': () => ({ body: { message: 'Record Added Successfully!' } }),
    });
    renderApp('/assign-vm-to-user');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: /Pick an existing learner/ }));
    await user.click(await screen.findByRole('option', { name: 'Ravi Kumar (ravi@demo.test)' }));
    expect(screen.getByRole('textbox', { name: /^First Name/ })).toHaveValue('Ravi');
    expect(screen.getByRole('textbox', { name: /^Mobile No/ })).toHaveValue('9000000002');
    // the filled fields stay editable
    await user.clear(screen.getByRole('textbox', { name: /^Last Name/ }));
    await user.type(screen.getByRole('textbox', { name: /^Last Name/ }), 'Kumaran');
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(net.callsTo('assign-vm-to-user')).toHaveLength(1));
    expect(net.callsTo('assign-vm-to-user')[0]?.body).toMatchObject({
      first_name: 'Ravi',
      last_name: 'Kumaran',
      email: 'ravi@demo.test',
      mobile_no: '9000000002',
    });
  });
});
