import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPEAKER_GAP_MS, SPEAKER_STEADY_MS, SpeakerAnnouncer } from '../src/features/conference/speaker-announcer';
import { FakeWebSocket } from './fake-websocket';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'));

/** jsdom has no WebRTC: a peer connection whose statistics report the audio level a test sets. */
class FakePeerConnection {
  static level = 0;
  signalingState = 'stable';
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  getTransceivers() {
    return [];
  }
  async getStats() {
    return new Map([['a', { type: 'inbound-rtp', kind: 'audio', audioLevel: FakePeerConnection.level }]]);
  }
  close() {}
}

const link = {
  url: 'http://localhost/conference/ai-basics',
  provider: 'builtin',
  room: 'room-1',
  slug: 'ai-basics',
  name: 'AI Basics for Teams',
  ws_url: 'ws://localhost/ws/conference',
  ice_servers: [],
  isModerator: 0,
  status: 1,
};
const peer = (id: string, name: string, isModerator = false) => ({ id, name, isModerator, guest: false });

beforeEach(() => {
  FakeWebSocket.last = null;
  FakePeerConnection.level = 0;
  const g = globalThis as unknown as Record<string, unknown>;
  g.WebSocket = FakeWebSocket;
  g.RTCPeerConnection = FakePeerConnection;
});
afterEach(() => {
  delete (globalThis as unknown as Record<string, unknown>).RTCPeerConnection;
});

async function inRoom() {
  signIn(['user']);
  stubFetch({ 'get-meeting-link': () => ({ body: link }) });
  renderApp('/conference/ai-basics');
  await userEvent.click(await screen.findByRole('button', { name: 'Join meeting' }));
  await waitFor(() => expect(FakeWebSocket.last?.readyState).toBe(1));
  const ws = FakeWebSocket.last as FakeWebSocket;
  ws.receive({ type: 'joined', you: peer('me', 'Lena Learner'), peers: [], isModerator: false, ice_servers: [] });
  await screen.findByRole('toolbar', { name: 'Meeting controls' });
  ws.receive({ type: 'peer-joined', peer: peer('h1', 'Priya Host', true) });
  return ws;
}

const log = () => screen.getByRole('log', { name: 'Meeting announcements' });

describe('conference announcements (polite live region)', () => {
  it('is a polite log that says who joined', async () => {
    await inRoom();
    expect(log()).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(log()).toHaveTextContent('Priya Host joined.'));
  });

  it('announces others’ hands, and shows them in the participants list', async () => {
    const ws = await inRoom();
    ws.receive({ type: 'hand', from: 'h1', raised: true });
    await waitFor(() => expect(log()).toHaveTextContent('Priya Host raised a hand.'));
    const list = screen.getByRole('list', { name: 'Participants' });
    const row = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.includes('Priya Host'));
    expect(row).toHaveTextContent('Hand raised');
    ws.receive({ type: 'hand', from: 'h1', raised: false });
    await waitFor(() => expect(log()).toHaveTextContent('Priya Host lowered their hand.'));
    expect(row).not.toHaveTextContent('Hand raised');
  });

  it('raises and lowers one’s own hand from the toolbar and tells the room', async () => {
    const ws = await inRoom();
    await userEvent.click(screen.getByRole('button', { name: 'Raise hand' }));
    expect(ws.sent.at(-1)).toEqual({ type: 'hand', raised: true });
    expect(log()).toHaveTextContent('Your hand is raised.');
    expect(
      within(screen.getByRole('list', { name: 'Participants' }))
        .getAllByRole('listitem')
        .find((li) => li.textContent?.includes('(You)')),
    ).toHaveTextContent('Hand raised');
    await userEvent.click(screen.getByRole('button', { name: 'Lower hand' }));
    expect(ws.sent.at(-1)).toEqual({ type: 'hand', raised: false });
    expect(log()).toHaveTextContent('Your hand is lowered.');
  });

  it('reads out others’ chat messages with the people tab open, not one’s own', async () => {
    const ws = await inRoom();
    ws.receive({ type: 'chat', from: 'h1', name: 'Priya Host', text: 'Welcome all', at: '2026-01-01T10:00:00Z' });
    await waitFor(() => expect(log()).toHaveTextContent('Priya Host says: Welcome all'));
    ws.receive({ type: 'chat', from: 'me', name: 'Lena Learner', text: 'Thanks', at: '2026-01-01T10:00:01Z' });
    expect(log()).not.toHaveTextContent('Thanks');
  });

  it('announces the recording starting and stopping, and shows a Recording badge meanwhile', async () => {
    const ws = await inRoom();
    ws.receive({ type: 'recording', on: true, by: 'h1' });
    await waitFor(() => expect(log()).toHaveTextContent('Recording started.'));
    expect(screen.getByText('Recording')).toBeInTheDocument();
    ws.receive({ type: 'recording', on: false, by: 'h1' });
    await waitFor(() => expect(log()).toHaveTextContent('Recording stopped.'));
    expect(screen.queryByText('Recording')).not.toBeInTheDocument();
  });

  it('names the active speaker once they have spoken steadily', async () => {
    await inRoom();
    FakePeerConnection.level = 0.4;
    await waitFor(() => expect(log()).toHaveTextContent('Priya Host is speaking.'), { timeout: 4000 });
  });
});

describe('speaker announcer', () => {
  it('waits for a steady speaker, never repeats the same one, and keeps a gap between names', () => {
    const s = new SpeakerAnnouncer();
    expect(s.sample({ a: 0.01, b: 0.02 }, 0)).toBeNull(); // silence
    expect(s.sample({ a: 0.5, b: 0.1 }, 100)).toBeNull(); // a starts
    expect(s.sample({ a: 0.5, b: 0.1 }, 100 + SPEAKER_STEADY_MS - 1)).toBeNull(); // not steady yet
    expect(s.sample({ a: 0.5, b: 0.1 }, 100 + SPEAKER_STEADY_MS)).toBe('a');
    expect(s.sample({ a: 0.5 }, 5000)).toBeNull(); // still a: said already
    // b takes over: steady, but too soon after naming a
    const t = 100 + SPEAKER_STEADY_MS;
    expect(s.sample({ a: 0.1, b: 0.6 }, t + 1000)).toBeNull();
    expect(s.sample({ a: 0.1, b: 0.6 }, t + 1000 + SPEAKER_STEADY_MS)).toBeNull();
    expect(s.sample({ a: 0.1, b: 0.6 }, t + SPEAKER_GAP_MS)).toBe('b');
    // a brief interjection of a is not named
    expect(s.sample({ a: 0.7, b: 0.1 }, t + SPEAKER_GAP_MS + 20_000)).toBeNull();
    expect(s.sample({ a: 0.1, b: 0.6 }, t + SPEAKER_GAP_MS + 20_500)).toBeNull();
  });
});
