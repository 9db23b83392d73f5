import net from 'node:net';
import type { Duplex } from 'node:stream';
import { VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type LabStream, labsFor } from '../../adapters/labs';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { resolveSession } from '../../platform/http/auth-context';
import type { SocketNeeds } from '../../platform/http/websocket';
import { canUse, type VmRow } from './access';
import { touchLab } from './lifecycle';
import { rdp } from './rdp';
import { RfbViewOnlyFilter } from './rfb-view-only';
import { watchableLab } from './watch';

/**
 * Remote access in the browser, through our server:
 * - /ws/labs/terminal/{name}: xterm.js ⇄ an SSH shell opened with ssh2 as the lab's account;
 * - /ws/labs/vnc/{name}: noVNC ⇄ the lab's VNC server (a plain WebSocket-to-TCP proxy);
 * - /ws/labs/rdp/{name}: guacamole-common-js ⇄ guacd for Windows labs (rdp.ts).
 * The session token travels as a WebSocket subprotocol `auth.<token>` (a header, so never in a URL
 * or a log); each socket is checked like a call: a live session of the assigned learner or of a
 * manager of the lab's tenant, on a started lab. Close codes: 4401 no session, 4404 not yours or
 * missing, 4409 not started, 4503 the engine cannot reach it.
 */
/** The parts of a `ws` WebSocket used here (the package ships no types). */
export interface WebSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: Buffer | string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close' | 'error', listener: () => void): void;
}

export const LAB_WS_PROTOCOLS = { terminal: 'tl-terminal', vnc: 'binary', rdp: 'guacamole' } as const;
const AUTH_PREFIX = 'auth.';
/** input counts as activity at most this often (a database write) */
const TOUCH_EVERY_MS = 10_000;

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return null;
  const found = header
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith(AUTH_PREFIX));
  return found ? found.slice(AUTH_PREFIX.length) : null;
}

/** `?view={slug}`: a moderator of that training watching a learner's desktop, input dropped. */
const viewOf = (request: FastifyRequest) => {
  const view = (request.query as { view?: unknown }).view;
  return typeof view === 'string' && view ? view : null;
};

export async function admit(
  deps: Deps,
  request: FastifyRequest,
  socket: WebSocket,
  view?: string,
): Promise<VmRow | null> {
  const token = tokenOf(request);
  const auth = token ? await resolveSession(deps, token) : null;
  if (!auth) {
    socket.close(4401, 'Unauthenticated.');
    return null;
  }
  const name = (request.params as { name?: string }).name ?? '';
  const [vm] = await deps.db.select().from(vms).where(eq(vms.vm_name, name)).limit(1);
  if (!vm || !(view ? await watchableLab(deps, auth, view, name) : canUse(auth, vm))) {
    socket.close(4404, 'Not Found');
    return null;
  }
  if (vm.status !== VM_STATUS.start) {
    socket.close(4409, 'The VM is not started.');
    return null;
  }
  return vm;
}

/**
 * The browser left while the socket waited (admission, the engine): nothing may be opened for it
 * then, or the lab would keep a connection nobody closes and count a user who is not there.
 */
const gone = (socket: WebSocket) => socket.readyState !== socket.OPEN;

/** Keeps the lab's idle clock and open-connection count up to date for one socket. */
export function activity(deps: Deps, vm: VmRow) {
  let last = 0;
  let open = false;
  return {
    opened: async () => {
      open = true;
      last = Date.now();
      await touchLab(deps, vm.id, 1);
    },
    input: () => {
      const now = Date.now();
      if (now - last < TOUCH_EVERY_MS) return;
      last = now;
      void touchLab(deps, vm.id).catch(() => undefined);
    },
    closed: () => {
      if (!open) return;
      open = false;
      void touchLab(deps, vm.id, -1).catch(() => undefined);
    },
  };
}

/** Messages that arrive while the socket is being admitted wait for their handler. */
export function inbox(socket: WebSocket) {
  const early: { raw: Buffer; isBinary: boolean }[] = [];
  let handler: ((raw: Buffer, isBinary: boolean) => void) | null = null;
  socket.on('message', (raw, isBinary) => {
    if (handler) handler(raw, isBinary);
    else if (early.length < 100) early.push({ raw, isBinary });
  });
  return (next: (raw: Buffer, isBinary: boolean) => void) => {
    handler = next;
    for (const m of early.splice(0)) next(m.raw, m.isBinary);
  };
}

async function terminal(deps: Deps, socket: WebSocket, request: FastifyRequest) {
  const onMessages = inbox(socket);
  const vm = await admit(deps, request, socket);
  if (!vm) return;
  const query = request.query as { cols?: string; rows?: string };
  const size = { cols: Number(query.cols) || 120, rows: Number(query.rows) || 32 };
  const engine = labsFor(deps);
  const ref = vm.engine_ref ?? vm.vm_name;
  // engines that reach labs through their own API (containers) open the shell themselves
  const opened = engine.openShell ? await engine.openShell(ref, size).catch(() => undefined) : null;
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
  const endpoint = await engine
    .connection(ref)
    .catch(() => ({}) as Awaited<ReturnType<ReturnType<typeof labsFor>['connection']>>);
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
      stream.write(raw);
      track.input();
      return;
    }
    try {
      const msg = JSON.parse(raw.toString()) as { type?: string; data?: string; cols?: number; rows?: number };
      if (msg.type === 'data' && typeof msg.data === 'string') {
        stream.write(msg.data);
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
      void track.opened();
      for (const m of pending.splice(0)) onMessage(m.raw, m.isBinary);
      channel.on('data', (chunk: Buffer) => {
        if (socket.readyState === socket.OPEN) socket.send(chunk);
      });
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
  shell.stream.on('data', (chunk: Buffer) => {
    if (socket.readyState === socket.OPEN) socket.send(chunk);
  });
  shell.stream.on('end', end);
  shell.stream.on('close', end);
  shell.stream.on('error', end);
  onMessages((raw, isBinary) => {
    if (isBinary) {
      shell.stream.write(raw);
      track.input();
      return;
    }
    try {
      const msg = JSON.parse(raw.toString()) as { type?: string; data?: string; cols?: number; rows?: number };
      if (msg.type === 'data' && typeof msg.data === 'string') {
        shell.stream.write(msg.data);
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
  const vm = await admit(deps, request, socket, view ?? undefined);
  if (!vm) return;
  const engine = labsFor(deps);
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
  tcp.on('data', (chunk) => {
    if (socket.readyState === socket.OPEN) socket.send(chunk);
  });
  tcp.on('close', end);
  tcp.on('error', end);
  onMessages((raw) => {
    if (!filter) {
      tcp.write(raw);
      track.input();
      return;
    }
    try {
      const allowed = filter.push(raw);
      if (allowed.length) tcp.write(allowed);
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
