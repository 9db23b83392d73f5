import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from './fake-websocket';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

// the whiteboard's third-party editor (Excalidraw) does not run in jsdom: a stand-in plays it
vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'));

const link = (over: Record<string, unknown> = {}) => ({
  url: 'http://localhost/conference/big-class',
  provider: 'builtin',
  room: 'room-1',
  slug: 'big-class',
  name: 'A Big Class',
  ws_url: 'ws://localhost/ws/conference',
  ice_servers: [],
  isModerator: 0,
  status: 1,
  ...over,
});

const peer = (id: string, name: string, isModerator = false) => ({ id, name, isModerator, guest: false });
const learners = Array.from({ length: 20 }, (_, i) => peer(`l${i + 1}`, `Learner ${i + 1}`));
const host = peer('h1', 'Priya Host', true);
const feeds = [host, ...learners].map((p) => ({ peer: p.id, source: 'camera', moderator: p.isModerator }));

beforeEach(() => {
  FakeWebSocket.last = null;
  (globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeWebSocket;
  // a laptop-sized window: 6 tiles a page (ourselves, the host, 4 learners)
  window.innerWidth = 1024;
});

async function joinSfuRoom(you: ReturnType<typeof peer>, isModerator: boolean) {
  await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
  await waitFor(() => expect(FakeWebSocket.last?.readyState).toBe(1));
  const ws = FakeWebSocket.last as FakeWebSocket;
  const others = [host, ...learners].filter((p) => p.id !== you.id);
  ws.receive({ type: 'joined', you, peers: others, isModerator, ice_servers: [], media: 'sfu' });
  ws.receive({ type: 'sfu-feeds', feeds });
  await screen.findByRole('toolbar', { name: 'Meeting controls' });
  return ws;
}

/** The feeds of the last `sfu-subscribe` the page sent. */
const lastSubscribe = (ws: FakeWebSocket) =>
  (ws.sent.filter((m) => m.type === 'sfu-subscribe').at(-1)?.streams as { feed: string; substream?: number }[]).map(
    (s) => `${s.feed}/${s.substream}`,
  );

describe('a room on the SFU (Janus)', () => {
  it('pages the grid and asks only for the streams shown; the speaker is pulled onto the page', async () => {
    signIn(['user']);
    stubFetch({ 'get-meeting-link': () => ({ body: link() }) });
    renderApp('/conference/big-class');
    const ws = await joinSfuRoom(peer('me', 'Lena Learner'), false);

    await waitFor(() => expect(lastSubscribe(ws)).toEqual(['h1/2', 'l1/0', 'l2/0', 'l3/0', 'l4/0']));
    const videos = screen.getByRole('region', { name: "Participants' videos" });
    expect(
      within(videos)
        .getAllByRole('group')
        .map((g) => g.getAttribute('aria-label')),
    ).toEqual([
      'Video of Lena Learner',
      'Video of Priya Host',
      'Video of Learner 1',
      'Video of Learner 2',
      'Video of Learner 3',
      'Video of Learner 4',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('Page 1 of 5');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    // the next page: the host stays, the learners change; the server is asked for the new set
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByRole('status')).toHaveTextContent('Page 2 of 5');
    await waitFor(() => expect(lastSubscribe(ws)).toEqual(['h1/2', 'l5/0', 'l6/0', 'l7/0', 'l8/0']));
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeEnabled();

    // Learner 20 speaks: highlighted and pulled onto this page in its last place
    ws.receive({ type: 'sfu-talking', peer: 'l20', talking: true });
    await waitFor(() => expect(lastSubscribe(ws)).toEqual(['h1/2', 'l5/0', 'l6/0', 'l7/0', 'l20/0']));
    expect(within(videos).getByRole('group', { name: 'Video of Learner 20, speaking' })).toHaveTextContent('Speaking');
    // stops talking: no longer highlighted, but stays until someone else speaks
    ws.receive({ type: 'sfu-talking', peer: 'l20', talking: false });
    expect(await within(videos).findByRole('group', { name: 'Video of Learner 20' })).toBeInTheDocument();

    // the last page by keyboard
    screen.getByRole('button', { name: 'Next page' }).focus();
    for (let i = 0; i < 3; i++) await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('status')).toHaveTextContent('Page 5 of 5');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    // the mesh's peer-to-peer signalling is not used on the SFU
    expect(ws.sent.some((m) => m.type === 'signal')).toBe(false);

    // people leave: fewer pages, the page shown is the last there is
    for (const l of learners.slice(4)) ws.receive({ type: 'peer-left', id: l.id });
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    await waitFor(() => expect(lastSubscribe(ws)).toEqual(['h1/2', 'l1/0', 'l2/0', 'l3/0', 'l4/0']));
  });

  it('asks again for the same streams when the feeds are announced again (their media came up)', async () => {
    signIn(['user']);
    stubFetch({ 'get-meeting-link': () => ({ body: link() }) });
    renderApp('/conference/big-class');
    const ws = await joinSfuRoom(peer('me', 'Lena Learner'), false);
    const subscribes = () => ws.sent.filter((m) => m.type === 'sfu-subscribe').length;
    await waitFor(() => expect(lastSubscribe(ws)).toEqual(['h1/2', 'l1/0', 'l2/0', 'l3/0', 'l4/0']));
    const before = subscribes();
    // the server left out streams not sending yet; the same list again means: ask again
    ws.receive({ type: 'sfu-feeds', feeds });
    await waitFor(() => expect(subscribes()).toBe(before + 1));
    expect(lastSubscribe(ws)).toEqual(['h1/2', 'l1/0', 'l2/0', 'l3/0', 'l4/0']);
  });

  it('gives the moderator a server recording instead of the browser recorder', async () => {
    signIn(['provider']);
    stubFetch({
      'get-meeting-link': () => ({ body: link({ isModerator: 1 }) }),
      'get-whiteboard': () => ({ body: { success: { scene: null, updated_at: null } } }),
    });
    renderApp('/conference/big-class');
    const ws = await joinSfuRoom(host, true);
    // the moderator's own camera is not asked for: the learners fill the page
    await waitFor(() => expect(lastSubscribe(ws)).toEqual(['l1/0', 'l2/0', 'l3/0', 'l4/0', 'l5/0']));
    expect(screen.queryByRole('radiogroup', { name: 'What to record' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    expect(ws.sent).toContainEqual({ type: 'recording', on: true });
    expect(screen.getByText('Recording', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    expect(ws.sent).toContainEqual({ type: 'recording', on: false });
    // the room's own rules stay: mute-all still goes to the room
    await userEvent.click(screen.getByRole('button', { name: "Mute everyone's audio" }));
    expect(ws.sent).toContainEqual({ type: 'mute-all', kind: 'audio' });
  });
});
