import type { ServerMessage } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joined, listen, scenario } from './conference-support';
import { createTestApp, type TestApp } from './helpers';

/** A closing server tells every conference socket to reconnect before it closes it (1012 Service Restart). */
let t: TestApp;
let closed = false;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  if (!closed) await t.close();
});

describe('shutdown of the conference', () => {
  it('each client in a room gets a reconnect message, then the socket closes with 1012', async () => {
    const { tr, provider, learner } = await scenario(t, { started: true });
    const base = await listen(t.app);
    const host = await joined(base, { token: provider.token }, tr.slug);
    const guest = await joined(base, { token: learner.token }, tr.slug);
    await host.client.next('peer-joined');

    // what each socket had received when it closed
    const atClose = (c: typeof host.client) => {
      const snapshot: { types: ServerMessage['type'][] | null } = { types: null };
      c.ws.on('close', () => {
        snapshot.types = c.received.map((m) => m.type);
      });
      return snapshot;
    };
    const hostSeen = atClose(host.client);
    const guestSeen = atClose(guest.client);

    const closing = t.close();
    closed = true;
    expect(await host.client.waitClosed(5000)).toBe(1012);
    expect(await guest.client.waitClosed(5000)).toBe(1012);
    await closing;
    expect(hostSeen.types).toContain('reconnect');
    expect(guestSeen.types).toContain('reconnect');
    expect(await host.client.next('reconnect')).toEqual({ type: 'reconnect', reason: 'restart' });
  });
});
