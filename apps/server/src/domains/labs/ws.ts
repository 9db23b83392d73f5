import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps';
import type { SocketNeeds } from '../../platform/http/websocket';
import type { LabEndpoint, LabStream } from '../../platform/ports/labs';
import type { VmRow } from './access';
import { fromBrowser, toBrowser } from './flow';
import { rdp } from './rdp';
import { RfbViewOnlyFilter } from './rfb-view-only';
import { activity, admit, inbox, type WebSocket } from './socket-admission';

/**
 * Remote access in the browser, through our server:
 * - /ws/labs/terminal/{name}: xterm.js ⇄ an SSH shell opened with ssh2 as the lab's account;
 * - /ws/labs/vnc/{name}: noVNC ⇄ the lab's VNC server (a plain WebSocket-to-TCP proxy);
 * - /ws/labs/rdp/{name}: guacamole-common-js ⇄ guacd for Windows labs (rdp.ts).
 * The session token travels as a WebSocket subprotocol `auth.<token>` (a header, so never in a URL
 * or a log); each socket is checked like a call: a live session of the assigned learner or of a
 * manager of the lab's tenant, on a started lab, when it opens and again every few seconds while it
 * is open (rights.ts: a logout or a lost assignment closes it). Close codes: 4401 no session, 4404
 * not yours or missing, 4409 not started, 4503 the engine cannot reach it. Every relay is flow
 * controlled (flow.ts): a browser that stops reading pauses the lab, nothing piles up here.
 */
export const LAB_WS_PROTOCOLS = { terminal: 'tl-terminal', vnc: 'binary', rdp: 'guacamole' } as const;

/** `?view={slug}`: a moderator of that training watching a learner's desktop, input dropped. */
const viewOf = (request: FastifyRequest) => {
  const view = (request.query as { view?: unknown }).view;
  return typeof view === 'string' && view ? view : null;
};

/**
 * The browser left while the socket waited (admission, the engine): nothing may be opened for it
 * then, or the lab would keep a connection nobody closes and count a user who is not there.
 */
const gone = (socket: WebSocket) => socket.readyState !== socket.OPEN;

async function terminal(deps: Deps, socket: WebSocket, request: FastifyRequest) {
  const onMessages = inbox(socket);
  const admitted = await admit(deps, request, socket);
  if (!admitted) return;
  const { vm } = admitted;
  const query = request.query as { cols?: string; rows?: string };
  const size = { cols: Number(query.cols) || 120, rows: Number(query.rows) || 32 };
  const engine = deps.labs;
  const ref = vm.engine_ref ?? vm.vm_name;
  // engines that reach labs through their own API (containers) open the shell themselves
  const opened = engine.openShell
    ? await engine.openShell(ref, size, `u${admitted.userId}`).catch(() => undefined)
    : null;
  if (opened === undefined) {
    socket.close(4503, 'The VM did not answer.');
    return;
  }
  if (gone(socket)) {
    opened?.close();
    return;
  }
  if (opened) {
    pipeTerminal(deps, vm, socket, opened, onMessages);
    return;
  }
  const endpoint = await engine.connection(ref).catch(() => ({}) as LabEndpoint);
  if (!endpoint.ssh) {
    socket.close(4503, 'This VM has no terminal.');
    return;
  }
  const hostKeys = new Set(endpoint.ssh.hostKeys);
  const track = activity(deps, vm);
  // ssh2 loads with the first terminal, not at start
  const { Client } = await import('ssh2');
  if (gone(socket)) return;
  const ssh = new Client();
  let stream: import('ssh2').ClientChannel | null = null;
  let toLab: ((chunk: Buffer | string) => void) | null = null;
  const end = () => {
    track.closed();
    ssh.end();
    if (socket.readyState === socket.OPEN) socket.close(1000);
  };
  // what arrives before the shell is open waits for it
  const pending: { raw: Buffer; isBinary: boolean }[] = [];
  const onMessage = (raw: Buffer, isBinary: boolean) => {
    if (!stream) {
      if (pending.length < 100) pending.push({ raw, isBinary });
      return;
    }
    if (isBinary) {
      toLab!(raw);
      track.input();
      return;
    }
    try {
      const msg = JSON.parse(raw.toString()) as { type?: string; data?: string; cols?: number; rows?: number };
      if (msg.type === 'data' && typeof msg.data === 'string') {
        toLab!(msg.data);
        track.input();
      } else if (msg.type === 'resize' && msg.cols && msg.rows) {
        stream.setWindow(Math.min(500, msg.rows), Math.min(500, msg.cols), 0, 0);
      }
    } catch {
      /* not a control message: ignored */
    }
  };
  onMessages(onMessage);
  socket.on('close', end);
  socket.on('error', end);
  ssh.on('ready', () => {
    // a keystroke is a few bytes: sent at once, not held back by Nagle's algorithm for an ACK
    // (about 40 ms per key otherwise, measured by bench/labs.ts)
    ssh.setNoDelay(true);
    ssh.shell({ term: 'xterm-256color', cols: size.cols, rows: size.rows }, (err, channel) => {
      if (err) {
        socket.close(4503, 'The shell could not start.');
        return;
      }
      stream = channel;
      toLab = fromBrowser(socket, channel);
      void track.opened();
      for (const m of pending.splice(0)) onMessage(m.raw, m.isBinary);
      // a paused channel grants the lab no more window: its shell waits
      channel.on('data', toBrowser(socket, channel));
      channel.on('close', end);
    });
  });
  ssh.on('error', () => {
    if (socket.readyState === socket.OPEN) socket.close(4503, 'The VM did not answer.');
  });
  ssh.connect({
    host: endpoint.ssh.host,
    port: endpoint.ssh.port,
    username: endpoint.ssh.username,
    password: vm.password_enc ? deps.cipher.decrypt(vm.password_enc) : '',
    readyTimeout: 10_000,
    // only the machine whose key the engine told us (never whoever answers at the address)
    hostVerifier: (key: Buffer) => hostKeys.has(key.toString('base64')),
  });
}

/** The terminal over a shell the engine opened itself (the same messages as the SSH path). */
function pipeTerminal(
  deps: Deps,
  vm: VmRow,
  socket: WebSocket,
  shell: LabStream,
  onMessages: ReturnType<typeof inbox>,
) {
  const track = activity(deps, vm);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    track.closed();
    shell.close();
    if (socket.readyState === socket.OPEN) socket.close(1000);
  };
  void track.opened();
  shell.stream.on('data', toBrowser(socket, shell.stream));
  const toLab = fromBrowser(socket, shell.stream);
  shell.stream.on('end', end);
  shell.stream.on('close', end);
  shell.stream.on('error', end);
  onMessages((raw, isBinary) => {
    if (isBinary) {
      toLab(raw);
      track.input();
      return;
    }
    try {
      const msg = JSON.parse(raw.toString()) as { type?: string; data?: string; cols?: number; rows?: number };
      if (msg.type === 'data' && typeof msg.data === 'string') {
        toLab(msg.data);
        track.input();
      } else if (msg.type === 'resize' && msg.cols && msg.rows) {
        void shell.resize?.(msg.cols, msg.rows);
      }
    } catch {
      /* not a control message: ignored */
    }
  });
  socket.on('close', end);
  socket.on('error', end);
}

async function vnc(deps: Deps, socket: WebSocket, request: FastifyRequest) {
  const onMessages = inbox(socket);
  const view = viewOf(request);
  const admitted = await admit(deps, request, socket, view ?? undefined);
  if (!admitted) return;
  const { vm } = admitted;
  const engine = deps.labs;
  const ref = vm.engine_ref ?? vm.vm_name;
  const opened = engine.openDesktop ? await engine.openDesktop(ref).catch(() => undefined) : null;
  let tcp: Duplex;
  if (opened) {
    if (gone(socket)) {
      opened.close();
      return;
    }
    tcp = opened.stream;
  } else {
    const endpoint =
      opened === null ? await engine.connection(ref).catch(() => ({}) as { vnc?: { host: string; port: number } }) : {};
    if (!endpoint.vnc) {
      socket.close(4503, 'This VM has no desktop.');
      return;
    }
    if (gone(socket)) return;
    tcp = net.connect({ host: endpoint.vnc.host, port: endpoint.vnc.port, noDelay: true });
  }
  // a watcher neither keeps the lab awake nor counts as its user's connection
  const track = view ? { opened: async () => {}, input: () => {}, closed: () => {} } : activity(deps, vm);
  const filter = view ? new RfbViewOnlyFilter() : null;
  const end = () => {
    track.closed();
    if (opened) opened.close();
    tcp.destroy();
    if (socket.readyState === socket.OPEN) socket.close(1000);
  };
  if (opened) void track.opened();
  else tcp.on('connect', () => void track.opened());
  tcp.on('data', toBrowser(socket, tcp));
  const toLab = fromBrowser(socket, tcp);
  tcp.on('close', end);
  tcp.on('error', end);
  onMessages((raw) => {
    if (!filter) {
      toLab(raw);
      track.input();
      return;
    }
    try {
      const allowed = filter.push(raw);
      if (allowed.length) toLab(allowed);
    } catch {
      end();
    }
  });
  socket.on('close', end);
  socket.on('error', end);
}

/**
 * What the lab sockets need of the app's WebSocket server: the protocol the client speaks is
 * answered; the auth.<token> entry is never echoed.
 */
export const LAB_SOCKETS: SocketNeeds = { maxPayload: 1024 * 1024, protocols: Object.values(LAB_WS_PROTOCOLS) };

export function labSockets(app: FastifyInstance, deps: Deps): void {
  app.get('/ws/labs/terminal/:name', { websocket: true }, (socket, request) => {
    void terminal(deps, socket as unknown as WebSocket, request).catch(() => socket.close(1011));
  });
  app.get('/ws/labs/vnc/:name', { websocket: true }, (socket, request) => {
    void vnc(deps, socket as unknown as WebSocket, request).catch(() => socket.close(1011));
  });
  app.get('/ws/labs/rdp/:name', { websocket: true }, (socket, request) => {
    void rdp(deps, socket as unknown as WebSocket, request).catch(() => socket.close(1011, '512'));
  });
}
