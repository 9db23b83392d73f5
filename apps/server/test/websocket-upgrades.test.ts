import { createRequire } from 'node:module';
import net from 'node:net';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LabEndpoint, MemoryLabs } from '../src/adapters/labs';
import { vms } from '../src/db/schema';
import { Client } from './conference-support';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, makeVm } from './labs-fixtures';

/**
 * Every WebSocket upgrade of the app (conference, lab terminal and desktop, and upgrades sent to a
 * path that is no socket) through the real listening server, with its log read: each upgrade is
 * answered once, with the right close code or HTTP status, and nothing is logged as a warning or an
 * error (a second handler of the same upgrade logged ERR_HTTP_SOCKET_ASSIGNED; decision 0034).
 */
interface Ws {
  readonly protocol: string;
  send(data: Buffer | string): void;
  close(): void;
  on(event: 'message', cb: (data: Buffer) => void): void;
  once(event: 'open', cb: () => void): void;
  once(event: 'error', cb: (e: Error) => void): void;
  once(event: 'close', cb: (code: number) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, protocols?: string[]) => Ws;

/** The simulated engine with every running lab's desktop on one local TCP server. */
class DesktopLabs extends MemoryLabs {
  /** while set, the engine takes this long to say where a lab is (a slow engine) */
  slow: Promise<void> | null = null;
  constructor(private readonly port: () => number) {
    super();
  }
  override async connection(ref?: string): Promise<LabEndpoint> {
    if (this.slow) await this.slow;
    return this.machines.get(ref ?? '') === 'running' ? { vnc: { host: '127.0.0.1', port: this.port() } } : {};
  }
}

interface LogLine {
  level: number;
  msg?: string;
  err?: { code?: string; message?: string };
}
const lines: LogLine[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
    done();
  },
});
/** The warnings and errors logged since `from` (pino: 40 warn, 50 error, 60 fatal). */
const problems = (from: number) => lines.slice(from).filter((l) => l.level >= 40);

let t: TestApp;
let labs: DesktopLabs;
/** connections the lab desktop has accepted, and how many of them are open */
const desktopSeen = { accepted: 0, open: 0 };
let http: string;
let ws: string;
let desktop: net.Server;
let provider: string;
let vmName: string;
let closed = false;

beforeAll(async () => {
  desktop = net.createServer((sock) => {
    desktopSeen.accepted++;
    desktopSeen.open++;
    sock.on('close', () => desktopSeen.open--);
    sock.on('error', () => {});
    sock.write('RFB 003.008\n');
  });
  await new Promise<void>((r) => desktop.listen(0, '127.0.0.1', r));
  const port = (desktop.address() as net.AddressInfo).port;
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory', LOG_LEVEL: 'warn' }, { logStream });
  labs = new DesktopLabs(() => port);
  t.deps.labs = labs;
  provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  vmName = (await makeVm(t, provider)).vm_name;
  expect((await t.post('vm-start-stop', { action: 'start', name: vmName }, provider)).status).toBe(200);
  http = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ws = http.replace(/^http/, 'ws');
});

afterAll(async () => {
  if (!closed) await t.close();
  await new Promise((r) => desktop.close(r));
});

/** Opens a socket; answers it once open, or the close code when refused before that. */
const open = (path: string, protocols: string[] = []) =>
  new Promise<{ socket: Ws; closed: Promise<number> }>((resolve, reject) => {
    const socket = new WebSocket(`${ws}${path}`, protocols);
    const closedCode = new Promise<number>((r) => socket.once('close', r));
    socket.once('open', () => resolve({ socket, closed: closedCode }));
    socket.once('error', reject);
  });

/** A raw upgrade request: what the server wrote back and whether it ended the connection (within 3 s). */
const rawUpgrade = (path: string) =>
  new Promise<{ head: string; ended: boolean }>((resolve) => {
    const { port } = new URL(http);
    const sock = net.connect(Number(port), '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      sock.destroy();
      resolve({ head: text, ended: false });
    }, 3000);
    sock.on('data', (d) => {
      text += d.toString('latin1');
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      clearTimeout(timer);
      resolve({ head: text, ended: true });
    });
    sock.write(
      `GET ${path} HTTP/1.1\r\nHost: app.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });

describe('WebSocket upgrades', () => {
  it('one handler answers each upgrade: a conference socket opens and talks, nothing is logged', async () => {
    expect(t.app.server.listenerCount('upgrade')).toBe(1);
    const from = lines.length;
    for (let i = 0; i < 3; i++) {
      const c = await Client.open(http);
      c.send({ type: 'ping' });
      await c.next('pong');
      c.close();
      expect(await c.waitClosed()).toBe(1005);
    }
    expect(problems(from)).toEqual([]);
  });

  it('refused lab sockets close with their code (4401, 4404), the token is never echoed, nothing is logged', async () => {
    const from = lines.length;
    const anonymous = await open(`/ws/labs/terminal/${vmName}`, ['tl-terminal']);
    expect(anonymous.socket.protocol).toBe('tl-terminal');
    expect(await anonymous.closed).toBe(4401);
    const badToken = await open(`/ws/labs/vnc/${vmName}`, ['binary', 'auth.not-a-session']);
    expect(badToken.socket.protocol).toBe('binary');
    expect(await badToken.closed).toBe(4401);
    const missing = await open('/ws/labs/vnc/no-such-lab', ['binary', `auth.${provider}`]);
    expect(await missing.closed).toBe(4404);
    expect(problems(from)).toEqual([]);
  });

  it('an accepted lab desktop speaks its protocol and relays the desktop, nothing is logged', async () => {
    const from = lines.length;
    const { socket, closed: done } = await open(`/ws/labs/vnc/${vmName}`, ['binary', `auth.${provider}`]);
    expect(socket.protocol).toBe('binary');
    const first = await new Promise<Buffer>((r) => socket.on('message', r));
    expect(first.toString()).toBe('RFB 003.008\n');
    socket.close();
    expect(await done).toBe(1005);
    expect(problems(from)).toEqual([]);
  });

  it('a desktop socket the browser leaves while the engine is slow opens nothing: no connection to the lab, no user counted', async () => {
    let answer = () => {};
    labs.slow = new Promise<void>((r) => {
      answer = r;
    });
    const connections = async () => (await t.deps.db.select().from(vms).where(eq(vms.vm_name, vmName)))[0]!.connections;
    // the earlier tests' sockets are counted out after they close (a write of its own)
    for (let i = 0; i < 100 && (await connections()) !== 0; i++) await new Promise((r) => setTimeout(r, 50));
    try {
      const before = { ...desktopSeen };
      const { socket, closed: done } = await open(`/ws/labs/vnc/${vmName}`, ['binary', `auth.${provider}`]);
      socket.close();
      await done;
      answer();
      await new Promise((r) => setTimeout(r, 500));
      expect(desktopSeen.accepted).toBe(before.accepted);
      expect(desktopSeen.open).toBeLessThanOrEqual(before.open);
      expect(await connections()).toBe(0);
    } finally {
      labs.slow = null;
    }
  });

  it('an upgrade to a path that is no socket gets its answer and the connection ends, nothing is logged', async () => {
    const from = lines.length;
    const unknown = await rawUpgrade('/api/no-such-call');
    expect(unknown.head).toMatch(/^HTTP\/1\.1 404 /);
    expect(unknown.ended).toBe(true);
    // a call's route accepts the upgrade and closes the socket at once
    const call = await open('/api/health');
    expect(await call.closed).toBe(1005);
    expect(problems(from)).toEqual([]);
  });

  it('a HEAD request to a socket path is answered 404 like a GET without an upgrade, nothing is logged', async () => {
    const from = lines.length;
    for (const path of ['/ws/conference', `/ws/labs/vnc/${vmName}`, '/ws/labs/terminal/x', '/ws/labs/rdp/x']) {
      expect((await fetch(`${http}${path}`, { method: 'HEAD' })).status).toBe(404);
      expect((await fetch(`${http}${path}`)).status).toBe(404);
    }
    expect((await fetch(`${http}/api/health`)).status).toBe(200);
    expect(problems(from)).toEqual([]);
  });

  it('on shutdown a conference socket is told to reconnect (1012), a lab socket goes away (1001)', async () => {
    const from = lines.length;
    const conference = await Client.open(http);
    const lab = await open(`/ws/labs/vnc/${vmName}`, ['binary', `auth.${provider}`]);
    closed = true;
    const closing = t.close();
    expect(await conference.waitClosed(5000)).toBe(1012);
    expect(await lab.closed).toBe(1001);
    await closing;
    expect(conference.received.map((m) => m.type)).toContain('reconnect');
    expect(problems(from)).toEqual([]);
  });
});
