import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RDP_GATEWAY_MISSING } from '@trainlab/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

/**
 * The Windows lab screen: guacamole-common-js's WebSocketTunnel against a socket at the network
 * edge that answers as our /ws/labs/rdp server does (tunnel id, then Guacamole instructions).
 */
const enc = (...elements: (string | number)[]) => `${elements.map((e) => `${String(e).length}.${e}`).join(',')};`;

class GuacSocket {
  static last: GuacSocket | null = null;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  readonly protocols: string[];
  constructor(
    readonly url: string,
    protocols?: string | string[],
  ) {
    this.protocols = [protocols ?? []].flat();
    GuacSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.();
    }, 0);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  receive(text: string) {
    act(() => this.onmessage?.({ data: text }));
  }
  serverClose(code: number, reason: string) {
    this.readyState = 3;
    act(() => this.onclose?.({ code, reason }));
  }
}

/** a 2D context that records what is drawn (jsdom has no canvas) */
const drawn: string[] = [];
beforeEach(() => {
  drawn.length = 0;
  GuacSocket.last = null;
  vi.stubGlobal('WebSocket', GuacSocket);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () =>
      new Proxy({} as Record<string, unknown>, {
        get: (target, prop) =>
          prop in target
            ? target[prop as string]
            : (...args: unknown[]) => {
                drawn.push(String(prop));
                return prop === 'getImageData' || prop === 'createImageData'
                  ? { data: new Uint8ClampedArray(4 * Number(args[2] ?? 1) * Number(args[3] ?? 1)) }
                  : undefined;
              },
        set: (target, prop, value) => {
          target[prop as string] = value;
          return true;
        },
      }) as unknown as RenderingContext,
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const WINDOWS = (over: Record<string, unknown> = {}) => ({
  vm_name: 'tl-aaaaaaaaaa',
  name: 'Windows lab',
  image: 'windows',
  protocol: 'rdp',
  status: 1,
  width: 1296,
  height: 765,
  terminal: false,
  desktop: false,
  rdp: true,
  problem: null,
  rdp_problem: null,
  username: 'tllab_aaaaaaaaaa',
  ...over,
});

async function openDesktop() {
  signIn(['provider_user'], { token: 'tok-123' });
  stubFetch({ 'vm-connection': () => ({ body: WINDOWS() }) });
  renderApp('/vm/tl-aaaaaaaaaa');
  await userEvent.click(await screen.findByRole('button', { name: 'Start Connection' }));
  const screenEl = await screen.findByTestId('lab-rdp');
  await waitFor(() => expect(GuacSocket.last).not.toBeNull());
  return { socket: GuacSocket.last!, screenEl };
}

describe('/vm/{name} for a Windows lab (RDP through guacd)', () => {
  it('opens a Guacamole tunnel to our endpoint with the token as a subprotocol, draws and answers syncs', async () => {
    const { socket, screenEl } = await openDesktop();
    expect(socket.url).toMatch(/^ws:\/\/[^/]+\/ws\/labs\/rdp\/tl-aaaaaaaaaa\?/);
    expect(socket.url).not.toContain('tok-123');
    expect(socket.protocols).toEqual(['guacamole', 'auth.tok-123']);
    await waitFor(() => expect(socket.readyState).toBe(1));
    socket.receive(enc('', '0c0ffee0-1111-2222-3333-444455556666'));
    socket.receive(
      enc('size', 0, 1296, 765) +
        enc('rect', 0, 0, 0, 1296, 765) +
        enc('cfill', 14, 0, 0, 128, 255, 255) +
        enc('sync', 1000),
    );
    await waitFor(() => expect(screenEl).toHaveAttribute('data-connected', 'true'));
    await waitFor(() => expect(socket.sent).toContain(enc('sync', 1000)));
    expect(drawn).toEqual(expect.arrayContaining(['rect', 'fill']));
    // the display element is inside the focusable application region
    expect(screenEl.querySelector('canvas')).not.toBeNull();
    expect(screenEl).toHaveAttribute('tabindex', '0');
    expect(screenEl).toHaveAccessibleName('Remote desktop (Windows)');
  });

  it('sends the keyboard and the clipboard; shows what was copied on the remote desktop', async () => {
    const { socket, screenEl } = await openDesktop();
    await waitFor(() => expect(socket.readyState).toBe(1));
    socket.receive(enc('', 'id') + enc('size', 0, 1296, 765) + enc('sync', 1));
    await waitFor(() => expect(screenEl).toHaveAttribute('data-connected', 'true'));

    screenEl.focus();
    fireEvent.keyDown(screenEl, { key: 'a', code: 'KeyA', keyCode: 65, which: 65 });
    fireEvent.keyPress(screenEl, { key: 'a', code: 'KeyA', charCode: 97, keyCode: 97, which: 97 });
    fireEvent.keyUp(screenEl, { key: 'a', code: 'KeyA', keyCode: 65, which: 65 });
    await waitFor(() => expect(socket.sent).toContain(enc('key', 97, 1)));
    await waitFor(() => expect(socket.sent).toContain(enc('key', 97, 0)));

    await userEvent.type(screen.getByLabelText('Clipboard to the remote desktop'), 'hello lab');
    await userEvent.click(screen.getByRole('button', { name: 'Send to the remote clipboard' }));
    const clip = socket.sent.find((m) => m.startsWith('9.clipboard,'));
    expect(clip).toMatch(/^9\.clipboard,\d+\.\d+,10\.text\/plain;$/);
    const streamId = String(String(clip).split(',')[1]).split('.')[1] ?? '';
    expect(socket.sent).toContain(enc('blob', streamId, btoa('hello lab')));
    expect(socket.sent).toContain(enc('end', streamId));

    socket.receive(enc('clipboard', 7, 'text/plain') + enc('blob', 7, btoa('from windows')) + enc('end', 7));
    await waitFor(() => expect(screen.getByLabelText('Copied on the remote desktop')).toHaveValue('from windows'));
  });

  it('a refusal of the socket is said in words (not the assigned learner: 516)', async () => {
    const { socket } = await openDesktop();
    await waitFor(() => expect(socket.readyState).toBe(1));
    socket.serverClose(4404, String(0x0204));
    expect(await screen.findByText('This VM is not available to you.')).toBeInTheDocument();
  });

  it('without the gateway the screen says so and opens no socket', async () => {
    signIn(['provider_user']);
    stubFetch({ 'vm-connection': () => ({ body: WINDOWS({ rdp_problem: RDP_GATEWAY_MISSING }) }) });
    renderApp('/vm/tl-aaaaaaaaaa');
    expect(await screen.findByText(RDP_GATEWAY_MISSING)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start Connection' }));
    expect(await screen.findByText('No remote desktop on this server.')).toBeInTheDocument();
    expect(GuacSocket.last).toBeNull();
    expect(screen.queryByTestId('lab-rdp')).toBeNull();
  });
});
