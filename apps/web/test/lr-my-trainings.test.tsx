import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const T = (over: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'Kubernetes Basics',
  slug: 'kube-basics',
  link: 'm-1',
  start_date: '2030-01-10T09:00:00.000Z',
  end_date: '2030-01-12T17:00:00.000Z',
  totalTopics: 0,
  status: 0,
  is_download_certificate: 0,
  ...over,
});

describe('/my-trainings', () => {
  it('lists the enrolments; the certificate icon shows only when download is allowed', async () => {
    signIn(['provider_user']);
    stubFetch({
      'lpu/get-trainings': () => ({
        body: { list: [T(), T({ id: 2, name: 'Docker Deep Dive', slug: 'docker', is_download_certificate: 1 })] },
      }),
    });
    renderApp('/my-trainings');
    expect(await screen.findByRole('heading', { name: 'My Trainings' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Kubernetes Basics')).toBeInTheDocument();
    expect(within(table).getByText('Docker Deep Dive')).toBeInTheDocument();
    for (const h of ['Name', 'Start Date', 'End Date', 'Action'])
      expect(within(table).getByText(h)).toBeInTheDocument();
    const certs = screen.getAllByRole('link', { name: 'Certificate' });
    expect(certs).toHaveLength(1);
    expect(certs[0]).toHaveAttribute('href', '/certificate/docker');
  });

  it('shows No Data Found when there are no enrolments', async () => {
    signIn(['user']);
    stubFetch({ 'lpu/get-trainings': () => ({ body: { list: [] } }) });
    renderApp('/my-trainings');
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
  });

  it('Start with topics goes to the trainee page without asking the start status', async () => {
    signIn(['provider_user']);
    const net = stubFetch({ 'lpu/get-trainings': () => ({ body: { list: [T({ totalTopics: 3 })] } }) });
    const { router } = renderApp('/my-trainings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start Kubernetes Basics' }));
    await waitFor(() => expect(locationOf(router)).toBe('/user/training-details/kube-basics'));
    expect(net.callsTo('lpu/training-start-status')).toHaveLength(0);
  });

  it('Start without topics: status 0 shows the waiting dialog; Join Again re-asks and status 1 opens the conference', async () => {
    signIn(['provider_user']);
    let status = 0;
    const net = stubFetch({
      'lpu/get-trainings': () => ({ body: { list: [T()] } }),
      'lpu/training-start-status': () => ({ body: { status } }),
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderApp('/my-trainings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start Kubernetes Basics' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MSG.waitingForHost)).toBeInTheDocument();
    expect(net.callsTo('lpu/training-start-status')[0]?.body).toEqual({ slug: 'kube-basics' });
    await user.click(within(dialog).getByRole('button', { name: 'Join Again' }));
    await waitFor(() => expect(net.callsTo('lpu/training-start-status')).toHaveLength(2));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();

    status = 1;
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Join Again' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/conference/kube-basics', '_blank'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Close dismisses the waiting dialog', async () => {
    signIn(['user']);
    stubFetch({
      'lpu/get-trainings': () => ({ body: { list: [T()] } }),
      'lpu/training-start-status': () => ({ body: { status: 0 } }),
    });
    renderApp('/my-trainings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start Kubernetes Basics' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes the window after 2 s on exactly /my-trainings/ and not on /my-trainings', async () => {
    signIn(['provider_user']);
    stubFetch({ 'lpu/get-trainings': () => ({ body: { list: [] } }) });
    const close = vi.fn();
    vi.stubGlobal('close', close);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const first = renderApp('/my-trainings');
    await screen.findAllByText(MSG.noDataFound);
    await act(async () => {
      vi.advanceTimersByTime(2500);
    });
    expect(close).not.toHaveBeenCalled();
    first.unmount();

    renderApp('/my-trainings/');
    await screen.findAllByText(MSG.noDataFound);
    await act(async () => {
      vi.advanceTimersByTime(1900);
    });
    expect(close).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('a failing list shows the error message', async () => {
    signIn(['provider_user']);
    stubFetch({ 'lpu/get-trainings': () => ({ status: 403, body: { message: 'Nope.' } }) });
    renderApp('/my-trainings');
    expect(await screen.findByText('Nope.')).toBeInTheDocument();
  });
});
