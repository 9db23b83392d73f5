import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECONNECT, RtcClient, reconnectDelay } from '../src/features/conference/rtc-client';

/** A stand-in for the browser WebSocket: records what the client sends, lets the test answer. */
class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const peer = (id: string) => ({ id, name: id, isModerator: false, guest: false });
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  vi.spyOn(Math, 'random').mockReturnValue(1); // the full delay: predictable
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('conference client reconnects', () => {
  it('on the server’s reconnect message: connects again to the same address, authenticates and rejoins the room', async () => {
    const onReconnecting = vi.fn();
    const onClosed = vi.fn();
    const client = new RtcClient({ onReconnecting, onClosed });
    client.join({ wsUrl: 'ws://app.test/ws/conference', slug: 'room-1', token: 'tok' });
    const first = FakeSocket.all[0]!;
    first.open();
    expect(first.sent).toEqual([
      { type: 'auth', token: 'tok' },
      { type: 'join', slug: 'room-1' },
    ]);
    first.receive({ type: 'joined', you: peer('a'), peers: [], isModerator: false, ice_servers: [] });

    first.receive({ type: 'reconnect', reason: 'restart' });
    await flush();
    expect(onReconnecting).toHaveBeenCalledWith(1, RECONNECT.baseMs);
    // the old socket is let go; the server's close that follows changes nothing
    first.drop(1012);
    expect(onClosed).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(RECONNECT.baseMs);
    const second = FakeSocket.all[1]!;
    expect(second.url).toBe('ws://app.test/ws/conference');
    second.open();
    expect(second.sent).toEqual([
      { type: 'auth', token: 'tok' },
      { type: 'join', slug: 'room-1' },
    ]);
    client.leave();
  });

  it('on an unexpected close: backs off 0.5 s, 1 s, 2 s… while the server is down, and starts over once joined', async () => {
    const onReconnecting = vi.fn();
    const client = new RtcClient({ onReconnecting });
    client.join({ wsUrl: 'ws://app.test/ws/conference', slug: 'room-2', token: 'tok' });
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1006);
    await vi.advanceTimersByTimeAsync(RECONNECT.baseMs - 1);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    // the server is still down: this attempt fails too, and the next waits twice as long
    FakeSocket.all[1]!.drop(1006);
    expect(onReconnecting).toHaveBeenLastCalledWith(2, RECONNECT.baseMs * 2);
    await vi.advanceTimersByTimeAsync(RECONNECT.baseMs * 2);
    const third = FakeSocket.all[2]!;
    third.open();
    third.receive({ type: 'joined', you: peer('b'), peers: [], isModerator: false, ice_servers: [] });
    await flush();
    // joined again: a later loss starts from the first delay
    third.drop(1006);
    expect(onReconnecting).toHaveBeenLastCalledWith(1, RECONNECT.baseMs);
    client.leave();
  });

  it('gives up after the last attempt and reports the close; never reconnects after ended, already open or leave', async () => {
    const onClosed = vi.fn();
    const client = new RtcClient({ onClosed });
    client.join({ wsUrl: 'ws://x/ws', slug: 's', token: 't' });
    FakeSocket.all[0]!.drop(1006);
    for (let i = 1; i <= RECONNECT.attempts; i++) {
      await vi.advanceTimersByTimeAsync(reconnectDelay(i));
      FakeSocket.all.at(-1)!.drop(1006);
    }
    expect(FakeSocket.all).toHaveLength(RECONNECT.attempts + 1);
    expect(onClosed).toHaveBeenCalledWith(1006);

    for (const code of [4000, 4409, 4401]) {
      const c = new RtcClient({ onClosed });
      c.join({ wsUrl: 'ws://x/ws', slug: 's', token: 't' });
      const before = FakeSocket.all.length;
      FakeSocket.all.at(-1)!.drop(code);
      await vi.advanceTimersByTimeAsync(RECONNECT.maxMs);
      expect(FakeSocket.all.length, `after ${code}`).toBe(before);
      expect(onClosed).toHaveBeenLastCalledWith(code);
    }

    const left = new RtcClient({});
    left.join({ wsUrl: 'ws://x/ws', slug: 's', token: 't' });
    const count = FakeSocket.all.length;
    left.leave();
    await vi.advanceTimersByTimeAsync(RECONNECT.maxMs);
    expect(FakeSocket.all.length).toBe(count);
  });

  it('a guest asks for a new ticket before each reconnect (a ticket is good once)', async () => {
    const freshTicket = vi.fn().mockResolvedValue('ticket-2');
    const client = new RtcClient({});
    client.join({ wsUrl: 'ws://x/ws', slug: 'pub', ticket: 'ticket-1', freshTicket });
    FakeSocket.all[0]!.open();
    expect(FakeSocket.all[0]!.sent[0]).toEqual({ type: 'auth', ticket: 'ticket-1' });
    FakeSocket.all[0]!.receive({ type: 'reconnect', reason: 'restart' });
    await flush();
    await vi.advanceTimersByTimeAsync(RECONNECT.baseMs);
    expect(freshTicket).toHaveBeenCalledTimes(1);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent[0]).toEqual({ type: 'auth', ticket: 'ticket-2' });
    client.leave();
  });

  it('delays grow to the cap and stay within half and all of it', () => {
    expect(reconnectDelay(1, 1)).toBe(500);
    expect(reconnectDelay(2, 1)).toBe(1000);
    expect(reconnectDelay(6, 1)).toBe(10_000);
    expect(reconnectDelay(20, 0)).toBe(5000);
  });
});
