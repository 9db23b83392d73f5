import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const ITEM = {
  id: 1,
  name: 'Kubernetes Basics',
  slug: 'kube-basics',
  start_date: '2030-01-10T09:00:00.000Z',
  end_date: '2030-01-12T17:00:00.000Z',
};

describe('learner dashboard', () => {
  it('/lpu-home lists upcoming trainings and the Virtual Machine card with Start VM', async () => {
    signIn(['provider_user']);
    stubFetch({
      'lpu/dashboard-data': () => ({
        body: {
          list: [ITEM],
          d_vm_data: { vm_name: 'lab-vm-7', name: 'Python Lab', created_at: '2030-01-05T08:00:00.000Z', status: 2 },
        },
      }),
    });
    renderApp('/lpu-home');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('Kubernetes Basics')).toBeInTheDocument();
    const vm = screen.getByRole('region', { name: 'Virtual Machine' });
    // one click: the VM page starts the lab it opens
    expect(within(vm).getByRole('link', { name: 'Start VM' })).toHaveAttribute('href', '/vm/lab-vm-7?start=1');
    // the lab's own name first, its technical id beside the date
    expect(within(vm).getByText('Python Lab')).toBeInTheDocument();
    expect(within(vm).getByText(/lab-vm-7 · assigned on 05 Jan 2030/)).toBeInTheDocument();
    // the state, not the spec's verb: status 2 reads Stopped
    expect(within(vm).getByText('Stopped')).toBeInTheDocument();
  });

  it('lists every lab assigned, newest first, each with its own Start VM (issue 41)', async () => {
    signIn(['provider_user']);
    const lab = (n: number, status: number) => ({
      vm_name: `lab-vm-${n}`,
      name: `Lab ${n}`,
      created_at: `2030-01-0${n}T08:00:00.000Z`,
      status,
    });
    stubFetch({
      'lpu/dashboard-data': () => ({
        body: { list: [], d_vm_data: lab(3, 1), vms: [lab(3, 1), lab(2, 2), lab(1, 0)] },
      }),
    });
    renderApp('/lpu-home');
    const vm = await screen.findByRole('region', { name: 'Virtual Machines (3)' });
    expect(
      within(vm)
        .getAllByTestId('learner-vm')
        .map((e) => e.textContent),
    ).toEqual([
      expect.stringContaining('Lab 3Running'),
      expect.stringContaining('Lab 2Stopped'),
      expect.stringContaining('Lab 1Not started'),
    ]);
    expect(within(vm).getByRole('link', { name: 'Start VM Lab 1' })).toHaveAttribute('href', '/vm/lab-vm-1?start=1');
  });

  it('/users says no VM yet, links the cart, and shows No Data Found without trainings', async () => {
    signIn(['user']);
    stubFetch({ 'lpu/dashboard-data': () => ({ body: { list: [], d_vm_data: null } }) });
    renderApp('/users');
    expect(await screen.findByText('No virtual machine is assigned yet.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Quick links' })).getByRole('link', { name: /Cart/ }),
    ).toHaveAttribute('href', '/view-cart');
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
  });

  it('Start asks check-training-status: topics → trainee page', async () => {
    signIn(['provider_user']);
    const net = stubFetch({
      'lpu/dashboard-data': () => ({ body: { list: [ITEM], d_vm_data: null } }),
      'check-training-status': () => ({ body: { status: 0, start_status: 0, totalTopics: 2 } }),
    });
    const { router } = renderApp('/lpu-home');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Start Kubernetes Basics' }));
    await waitFor(() => expect(locationOf(router)).toBe('/user/training-details/kube-basics'));
    expect(net.callsTo('check-training-status')[0]?.body).toEqual({ slug: 'kube-basics' });
  });

  it('Start without topics: not started → waiting dialog; started → conference window', async () => {
    signIn(['provider_user']);
    let start = 0;
    stubFetch({
      'lpu/dashboard-data': () => ({ body: { list: [ITEM], d_vm_data: null } }),
      'check-training-status': () => ({ body: { status: start, start_status: start, totalTopics: 0 } }),
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderApp('/lpu-home');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start Kubernetes Basics' }));
    expect(within(await screen.findByRole('dialog')).getByText(MSG.waitingForHost)).toBeInTheDocument();
    start = 1;
    await user.click(screen.getByRole('button', { name: 'Join Again' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/conference/kube-basics', '_blank'));
  });
});
