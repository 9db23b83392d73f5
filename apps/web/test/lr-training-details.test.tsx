import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const TOPIC = (over: Record<string, unknown> = {}) => ({
  id: 5,
  session_topic: 'Pods and Services',
  start_time: '2030-01-10T09:00:00.000Z',
  end_time: '2030-01-10T10:00:00.000Z',
  no_of_min: 60,
  rating: null,
  status: 0,
  recording_url: null,
  ustart_time: null,
  uend_time: null,
  urating: null,
  ...over,
});

describe('/user/training-details/:slug', () => {
  it('lists the topics with status and my join times; Back goes to /my-trainings', async () => {
    signIn(['provider_user']);
    const net = stubFetch({
      'get-user-training-details': () => ({
        body: {
          list: [
            TOPIC(),
            TOPIC({
              id: 6,
              session_topic: 'Helm Charts',
              status: 2,
              ustart_time: '2030-01-10T09:05:00.000Z',
              uend_time: '2030-01-10T09:55:00.000Z',
            }),
          ],
          name: 'Kubernetes Basics',
        },
      }),
    });
    const { router } = renderApp('/user/training-details/kube-basics');
    expect(await screen.findByText('Pods and Services')).toBeInTheDocument();
    expect(net.callsTo('get-user-training-details')[0]?.body).toEqual({ slug: 'kube-basics' });
    expect(screen.getByText('Topics of Kubernetes Basics')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByText('Schedule')).toBeInTheDocument();
    expect(within(table).getByText('Completed')).toBeInTheDocument();
    expect(within(table).getAllByText(/Joined: \d/)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Join Helm Charts' })).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/my-trainings'));
  });

  it('Join on a scheduled topic shows the waiting dialog; once Starting, Join Again records attendance and opens the meeting', async () => {
    signIn(['provider_user']);
    let status = 0;
    const net = stubFetch({
      'get-user-training-details': () => ({ body: { list: [TOPIC({ status })] } }),
      'add-training-attendance': () => ({ body: { message: MSG.attendanceAdded, id: 77 } }),
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderApp('/user/training-details/kube-basics');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Join Pods and Services' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MSG.waitingForHost)).toBeInTheDocument();
    expect(net.callsTo('add-training-attendance')).toHaveLength(0);

    status = 1;
    await user.click(within(dialog).getByRole('button', { name: 'Join Again' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/conference/kube-basics', '_blank'));
    expect(net.callsTo('add-training-attendance')[0]?.body).toEqual({ id: 5 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('rating is enabled only for completed topics and sends {rating, id} then toasts', async () => {
    signIn(['user']);
    const net = stubFetch({
      'get-user-training-details': () => ({
        body: { list: [TOPIC(), TOPIC({ id: 6, session_topic: 'Helm Charts', status: 2 })] },
      }),
      'add-training-rating': () => ({ body: { message: MSG.ratingAdded } }),
    });
    renderApp('/user/training-details/kube-basics');
    const user = userEvent.setup();
    await screen.findByText('Helm Charts');
    // a read-only Rating renders no inputs: only the completed topic can be rated
    const radios = screen.getAllByRole('radio');
    expect(new Set(radios.map((r) => r.getAttribute('name'))).size).toBe(1);
    const four = radios.find((r) => r.getAttribute('value') === '4');
    // Mantine's Rating sets the value when the star's label is clicked
    const label = document.querySelector(`label[for="${four?.id}"]`);
    expect(label).not.toBeNull();
    await user.click(label as HTMLElement);
    await waitFor(() => expect(net.callsTo('add-training-rating')[0]?.body).toEqual({ rating: 4, id: 6 }));
    expect(await screen.findByText(MSG.ratingAdded)).toBeInTheDocument();
  });

  it('shows No Data Found for a training without topics', async () => {
    signIn(['user']);
    stubFetch({ 'get-user-training-details': () => ({ body: { list: [] } }) });
    renderApp('/user/training-details/kube-basics');
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
  });
});
