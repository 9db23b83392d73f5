import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { element, stub } from './excalidraw-stub';
import { FakeWebSocket } from './fake-websocket';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

// the whiteboard's third-party editor (Excalidraw) does not run in jsdom: a stand-in plays it
vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'));

const link = (over: Record<string, unknown> = {}) => ({
  url: 'http://localhost/conference/ai-basics',
  provider: 'builtin',
  room: 'room-1',
  slug: 'ai-basics',
  name: 'AI Basics for Teams',
  ws_url: 'ws://localhost/ws/conference',
  ice_servers: [],
  isModerator: 0,
  status: 1,
  ...over,
});

const peer = (id: string, name: string, isModerator = false) => ({ id, name, isModerator, guest: false });

beforeEach(() => {
  FakeWebSocket.last = null;
  stub.reset();
  // jsdom has no WebSocket server: the fake stands at the network edge
  (globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeWebSocket;
});

async function openSocket() {
  await waitFor(() => expect(FakeWebSocket.last?.readyState).toBe(1));
  return FakeWebSocket.last as FakeWebSocket;
}

describe('conference page', () => {
  it('asks a moderator to start a training that is not started; Yes starts it and shows the preview', async () => {
    signIn(['provider']);
    const api = stubFetch({
      'get-meeting-link': (body) => ({ body: link({ isModerator: 1, status: body.start ? 1 : 0 }) }),
    });
    renderApp('/conference/ai-basics');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MSG.confirmStartTraining)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'No' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('get-meeting-link').at(-1)?.body).toEqual({ slug: 'ai-basics', start: 1 }));
    expect(await screen.findByRole('button', { name: 'Join meeting' })).toBeInTheDocument();
    expect(screen.queryByText(/The training is not started/)).not.toBeInTheDocument();
  });

  it('No keeps the training unstarted and offers Start Training again', async () => {
    signIn(['provider']);
    const api = stubFetch({ 'get-meeting-link': () => ({ body: link({ isModerator: 1, status: 0 }) }) });
    renderApp('/conference/ai-basics');
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'No' }));
    expect(await screen.findByText(/learners wait until you start it/)).toBeInTheDocument();
    expect(api.callsTo('get-meeting-link').every((c) => !c.body.start)).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Start Training' }));
    expect(await screen.findByText(MSG.confirmStartTraining)).toBeInTheDocument();
  });

  it('shows a learner the waiting dialog before the host starts; Join Again asks again', async () => {
    signIn(['user']);
    let status = 0;
    const api = stubFetch({ 'get-meeting-link': () => ({ body: link({ status }) }) });
    renderApp('/conference/ai-basics');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MSG.waitingForHost)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    status = 1;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join Again' }));
    expect(await screen.findByRole('button', { name: 'Join meeting' })).toBeInTheDocument();
    expect(api.callsTo('get-meeting-link')).toHaveLength(2);
  });

  it('offers one Join Again at a time: the dialog’s, then the page’s once the dialog is closed', async () => {
    signIn(['user']);
    let status = 0;
    const api = stubFetch({ 'get-meeting-link': () => ({ body: link({ status }) }) });
    renderApp('/conference/ai-basics');
    const dialog = await screen.findByRole('dialog');
    expect(screen.getAllByRole('button', { name: 'Join Again' })).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Join Again' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getAllByRole('button', { name: 'Join Again' })).toHaveLength(1);
    status = 1;
    await userEvent.click(screen.getByRole('button', { name: 'Join Again' }));
    expect(await screen.findByRole('button', { name: 'Join meeting' })).toBeInTheDocument();
    expect(api.callsTo('get-meeting-link')).toHaveLength(2);
  });

  it('names the training, not its slug, on the pre-join screen', async () => {
    signIn(['user']);
    stubFetch({ 'get-meeting-link': () => ({ body: link() }) });
    renderApp('/conference/ai-basics');
    expect(await screen.findByText('Ready to join AI Basics for Teams?')).toBeInTheDocument();
    expect(screen.queryByText(/ai-basics/)).not.toBeInTheDocument();
  });

  it('authenticates and joins over the socket; a second tab gets the already-open dialog', async () => {
    signIn(['user'], { token: 'tok-1' });
    stubFetch({ 'get-meeting-link': () => ({ body: link() }) });
    renderApp('/conference/ai-basics');
    await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
    const ws = await openSocket();
    expect(ws.url).toBe('ws://localhost/ws/conference');
    expect(ws.sent.slice(0, 2)).toEqual([
      { type: 'auth', token: 'tok-1' },
      { type: 'join', slug: 'ai-basics' },
    ]);
    ws.receive({ type: 'error', message: MSG.trainingAlreadyOpen });
    ws.serverClose(4409);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MSG.trainingAlreadyOpen)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('in the room: participants and chat; the moderator mute turns the learner’s microphone off', async () => {
    signIn(['user']);
    stubFetch({
      'get-meeting-link': () => ({ body: link() }),
      'end-meeting': () => ({ body: { message: 'ok', closed: 1 } }),
    });
    const { router } = renderApp('/conference/ai-basics');
    await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
    const ws = await openSocket();
    ws.receive({ type: 'joined', you: peer('c2', 'Lena Learner'), peers: [], isModerator: false, ice_servers: [] });
    expect(await screen.findByRole('toolbar', { name: 'Meeting controls' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: "Mute everyone's audio" })).not.toBeInTheDocument();
    ws.receive({ type: 'chat', from: 'c1', name: 'Priya Host', text: 'Welcome all', at: '2026-01-01T10:00:00Z' });
    await userEvent.click(screen.getByRole('tab', { name: /Chat/ }));
    expect(screen.getByText('Welcome all')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Chat message' }), 'Hi there{Enter}');
    expect(ws.sent.at(-1)).toEqual({ type: 'chat', text: 'Hi there' });

    ws.receive({ type: 'muted', kind: 'audio', by: 'c1' });
    expect(await screen.findByText('The host muted your microphone.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn microphone on' })).toBeInTheDocument();

    ws.receive({ type: 'whiteboard', scene: { elements: [element('e1')] }, by: 'c1' });
    expect(await screen.findByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '1');
    expect(screen.getByText('The host draws here; you see it live.')).toBeInTheDocument();
    expect(await screen.findByTestId('excalidraw-stub')).toHaveAttribute('data-view-mode', 'true');
    // the next drawing of the host replaces the shown one
    ws.receive({ type: 'whiteboard', scene: { elements: [element('e1', 2), element('e2')] }, by: 'c1' });
    await waitFor(() => expect(stub.api.updateScene).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '2');
    // a second moderator's scene, sent before it saw e2, adds its stroke and loses nothing
    ws.receive({ type: 'whiteboard', scene: { elements: [element('e1', 2), element('t1')] }, by: 'c9' });
    await waitFor(() => expect(screen.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '3'));
    // the host erases e2: its tombstone removes it
    ws.receive({
      type: 'whiteboard',
      scene: { elements: [element('e1', 2), element('e2', 2, { isDeleted: true }), element('t1')] },
      by: 'c1',
    });
    await waitFor(() => expect(screen.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '2'));

    ws.receive({ type: 'ended', by: 'c1' });
    expect(await screen.findByText('The meeting has been ended by the host.')).toBeInTheDocument();
    // /end-meeting → the site root, which sends a signed-in learner on to its home
    await waitFor(() => expect(locationOf(router)).toBe('/users'));
  });

  it('gives a moderator the mute, end-for-all (confirmed) and whiteboard buttons', async () => {
    signIn(['provider']);
    stubFetch({
      'get-meeting-link': () => ({ body: link({ isModerator: 1 }) }),
      'get-whiteboard': () => ({ body: { success: { scene: null, updated_at: null } } }),
    });
    renderApp('/conference/ai-basics');
    await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
    const ws = await openSocket();
    ws.receive({ type: 'joined', you: peer('c1', 'Priya Host', true), peers: [], isModerator: true, ice_servers: [] });
    await userEvent.click(await screen.findByRole('button', { name: "Mute everyone's video" }));
    expect(ws.sent).toContainEqual({ type: 'mute-all', kind: 'video' });
    await userEvent.click(screen.getByRole('button', { name: 'End meeting for all' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(ws.sent).toContainEqual({ type: 'end-all' });
  });

  it('sends the moderator’s drawing to the room only when it changed, and saves it with the training', async () => {
    signIn(['provider']);
    const api = stubFetch({
      'get-meeting-link': () => ({ body: link({ isModerator: 1 }) }),
      'get-whiteboard': () => ({ body: { success: { scene: null, updated_at: null } } }),
      'save-whiteboard': () => ({ body: { message: 'Whiteboard saved successfully!' } }),
    });
    renderApp('/conference/ai-basics');
    await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
    const ws = await openSocket();
    ws.receive({ type: 'joined', you: peer('c1', 'Priya Host', true), peers: [], isModerator: true, ice_servers: [] });
    await userEvent.click(await screen.findByRole('button', { name: 'Whiteboard' }));
    expect(await screen.findByTestId('excalidraw-stub')).toHaveAttribute('data-view-mode', 'false');
    await waitFor(() => expect(api.callsTo('get-whiteboard')).toHaveLength(1));
    const boardMessages = () => ws.sent.filter((m) => m.type === 'whiteboard');
    const draw = (els: ReturnType<typeof element>[]) =>
      act(() => stub.props?.onChange?.(els, { viewBackgroundColor: '#ffffff' }, {}));

    draw([]); // Excalidraw's first onChange: nothing drawn, nothing sent
    draw([element('r1', 1)]);
    for (let i = 0; i < 5; i++) draw([element('r1', 1)]); // pointer moves that change nothing
    expect(boardMessages()).toEqual([
      { type: 'whiteboard', scene: { elements: [element('r1', 1)], appState: { viewBackgroundColor: '#ffffff' } } },
    ]);
    expect(screen.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '1');

    // a real change within the throttle window goes out once the window has passed
    draw([element('r1', 2)]);
    await waitFor(() => expect(boardMessages()).toHaveLength(2));
    expect((boardMessages()[1]?.scene as { elements: { version: number }[] }).elements[0]?.version).toBe(2);
    // and the last drawing is saved with the training after a pause
    await waitFor(() => expect(api.callsTo('save-whiteboard')).toHaveLength(1), { timeout: 4000 });
    expect(api.callsTo('save-whiteboard')[0]?.body).toEqual({
      slug: 'ai-basics',
      scene: { elements: [element('r1', 2)], appState: { viewBackgroundColor: '#ffffff' } },
    });
  });
});

describe('guest join', () => {
  it('waits with Try Again while the public training is not started', async () => {
    let status = 0;
    const api = stubFetch({ 'get-meeting-status': () => ({ body: { status } }) });
    renderApp('/public/conference/room-1');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MSG.waitingForHost)).toBeInTheDocument();
    status = 1;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('dialog', { name: 'Join as a guest' })).toBeInTheDocument();
    expect(api.callsTo('get-meeting-status')[0]?.body).toEqual({ meeting_id: 'room-1' });
  });

  it('asks the name, shows 422 under the field, then joins with the ticket', async () => {
    let reply: { status: number; body: unknown } = {
      status: 422,
      body: { first_name: ['The first name may only contain letters.'] },
    };
    const api = stubFetch({
      'get-meeting-status': () => ({ body: { status: 1 } }),
      'get-meeting-url': () => reply,
    });
    renderApp('/public/conference/room-1');
    const dialog = await screen.findByRole('dialog', { name: 'Join as a guest' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'First Name' }), 'G1');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Last Name' }), 'Guest');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(await within(dialog).findByText('The first name may only contain letters.')).toBeInTheDocument();
    expect(api.callsTo('get-meeting-url')[0]?.body).toEqual({
      first_name: 'G1',
      last_name: 'Guest',
      meeting_id: 'room-1',
    });

    reply = { status: 200, body: { ...link(), ticket: 'tick-1', expires_in: 600 } };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(await screen.findByText('Ready to join AI Basics for Teams?')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
    const ws = await openSocket();
    expect(ws.sent[0]).toEqual({ type: 'auth', ticket: 'tick-1' });
  });

  it('shows the server’s refusal of a non-public training', async () => {
    stubFetch({ 'get-meeting-status': () => ({ status: 403, body: { message: 'This training is not public.' } }) });
    renderApp('/public/conference/room-1');
    expect(await screen.findByText('This training is not public.')).toBeInTheDocument();
  });
});

describe('end meeting', () => {
  it('clears the session markers and returns to the site root', async () => {
    signIn(['user']);
    const api = stubFetch({ 'end-meeting': () => ({ body: { message: 'Meeting ended successfully!', closed: 1 } }) });
    const { router } = renderApp('/end-meeting/ai-basics');
    await waitFor(() => expect(api.callsTo('end-meeting')[0]?.body).toEqual({ slug: 'ai-basics' }));
    await waitFor(() => expect(locationOf(router)).not.toBe('/end-meeting/ai-basics'));
  });
});
