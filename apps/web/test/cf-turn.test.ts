import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECONNECT, RtcClient } from '../src/features/conference/rtc-client';
import { FakeWebSocket } from './fake-websocket';

/** jsdom has no WebRTC: a stand-in that records the configuration each connection was made with. */
class FakePeerConnection {
  static made: RTCConfiguration[] = [];
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  remoteDescription = null;
  constructor(readonly config: RTCConfiguration) {
    FakePeerConnection.made.push(config);
  }
  addTransceiver() {}
  getTransceivers() {
    return [];
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0' };
  }
  async setLocalDescription() {}
  close() {}
}

const peer = (id: string) => ({ id, name: id, isModerator: false, guest: false });
const turn = (username: string) => ({
  urls: ['turn:turn.lan.test:3478?transport=udp'],
  username,
  credential: `cred-of-${username}`,
});
const STUN = { urls: 'stun:stun.lan.test:3478' };

beforeEach(() => {
  FakePeerConnection.made = [];
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.spyOn(Math, 'random').mockReturnValue(1);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function opened(): Promise<FakeWebSocket> {
  await vi.waitFor(() => expect(FakeWebSocket.last?.readyState).toBe(1));
  return FakeWebSocket.last!;
}

describe('conference client and the TURN relay', () => {
  it('connects to peers with the TURN credential of its own join, and a fresh one after a reconnect', async () => {
    FakeWebSocket.last = null;
    const client = new RtcClient({});
    client.join({ wsUrl: 'ws://app.test/ws/conference', slug: 'room-1', token: 'tok', iceServers: [STUN] });
    const first = await opened();
    first.receive({
      type: 'joined',
      you: peer('me'),
      peers: [peer('a')],
      isModerator: false,
      ice_servers: [STUN, turn('1000:7')],
    });
    // offering to those already in the room, and answering one who comes later
    first.receive({ type: 'peer-joined', peer: peer('b') });
    await vi.waitFor(() => expect(FakePeerConnection.made).toHaveLength(2));
    for (const config of FakePeerConnection.made) expect(config.iceServers).toEqual([STUN, turn('1000:7')]);

    // the server restarts; the new join brings a credential with a later expiry
    first.receive({ type: 'reconnect', reason: 'restart' });
    await new Promise((r) => setTimeout(r, RECONNECT.baseMs + 50));
    const second = await opened();
    expect(second).not.toBe(first);
    second.receive({
      type: 'joined',
      you: peer('me2'),
      peers: [peer('a2')],
      isModerator: false,
      ice_servers: [STUN, turn('9000:7')],
    });
    await vi.waitFor(() => expect(FakePeerConnection.made).toHaveLength(3));
    expect(FakePeerConnection.made[2]!.iceServers).toEqual([STUN, turn('9000:7')]);
    client.leave();
  });
});
