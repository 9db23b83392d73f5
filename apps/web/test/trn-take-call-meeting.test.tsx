import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeWebSocket } from './fake-websocket';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

beforeEach(() => {
  FakeWebSocket.last = null;
  (globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeWebSocket;
});

const page = <T,>(list: T[]) => ({ body: { list, total: list.length, page: 1, per_page: 20 } });
const takeCall = (over: Record<string, unknown> = {}) => ({
  id: 7,
  slug: 'intro-call',
  name: 'Kubernetes Basics',
  training_slug: 'k8s',
  title: 'Intro call',
  start: '2030-01-02T10:00:00.000Z',
  end: '2030-01-02T11:00:00.000Z',
  status: 0,
  trainers: 2,
  answered: 1,
  ...over,
});
const link = (isModerator: number) => ({
  body: {
    url: 'http://localhost/take-call-meeting/7',
    provider: 'builtin',
    room: 'take-call-intro-call',
    slug: 'intro-call',
    name: 'Kubernetes Basics',
    ws_url: 'ws://localhost/ws/conference',
    ice_servers: [],
    isModerator,
    status: 1,
  },
});

describe('take call meeting', () => {
  it('the provider presses Start and joins the take call’s own room as its moderator', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'show-take-call': () => page([takeCall(), takeCall({ id: 8, title: 'Old call', status: 1 })]),
      'all-trainings': () => page([]),
      'get-take-call-meeting-link': () => link(1),
    });
    const { router } = renderApp('/take-calls');
    const user = userEvent.setup();
    const start = await screen.findAllByRole('link', { name: 'Start the meeting of Intro call' }, { timeout: 15_000 });
    await user.click(start[0]!);
    // a completed take call has no Start
    expect(screen.queryByRole('link', { name: 'Start the meeting of Old call' })).toBeNull();
    await waitFor(() => expect(locationOf(router)).toBe('/take-call-meeting/7'));
    await waitFor(() => expect(net.callsTo('get-take-call-meeting-link')[0]?.body).toEqual({ id: '7' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Take call meeting' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Join meeting' }));
    await waitFor(() => expect(FakeWebSocket.last?.readyState).toBe(1));
    const socket = FakeWebSocket.last!;
    await waitFor(() => expect(socket.sent[1]).toEqual({ type: 'join', slug: 'intro-call', room: 'take-call' }));
    socket.receive({
      type: 'joined',
      you: { id: 'me', name: 'Priya Provider', isModerator: true, guest: false },
      peers: [],
      isModerator: true,
      ice_servers: [],
    });
    // the manager side moderates; a take call has no recording (that belongs to a training)
    expect(await screen.findByRole('button', { name: "Mute everyone's audio" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'End meeting for all' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /record/i })).toBeNull();
  });

  it('an invited trainer presses Start on their take calls and joins as a participant', async () => {
    signIn(['trainer']);
    const net = stubFetch({
      'trainer-take-calls': () =>
        page([
          {
            first_name: 'Priya',
            last_name: 'Provider',
            learning_provider: 'Priya Provider',
            name: 'Kubernetes Basics',
            title: 'Intro call',
            start: '2030-01-02T10:00:00.000Z',
            end: '2030-01-02T11:00:00.000Z',
            status: 1,
            propose_date1: null,
            propose_date2: null,
            propose_date3: null,
            remark: null,
            is_assing: 0,
            take_call_id: 7,
            take_call_detail_id: 3,
          },
        ]),
      'get-take-call-meeting-link': () => link(0),
    });
    const { router } = renderApp('/trainer-take-calls');
    const start = await screen.findAllByRole('link', { name: 'Start the meeting of Intro call' }, { timeout: 15_000 });
    await userEvent.click(start[0]!);
    await waitFor(() => expect(locationOf(router)).toBe('/take-call-meeting/7'));
    expect(await screen.findByRole('button', { name: 'Join meeting' })).toBeInTheDocument();
    expect(net.callsTo('get-take-call-meeting-link')).toHaveLength(1);
  });

  it('shows the server’s refusal (not invited)', async () => {
    signIn(['trainer']);
    stubFetch({ 'get-take-call-meeting-link': () => ({ status: 404, body: { message: 'Not Found.' } }) });
    renderApp('/take-call-meeting/9');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join meeting' })).toBeNull();
  });
});
