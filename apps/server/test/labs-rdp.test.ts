import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RDP_GATEWAY_MISSING } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GceLabs } from '../src/adapters/labs/gce';
import { encodeInstruction, InstructionReader } from '../src/adapters/labs/guacamole';
import { users } from '../src/db/schema';
import { serviceAccountKey, startFakeCompute } from './gce-fake';
import { GUACD_ARGS, startFakeGuacd } from './guacd-fake';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, linuxVm } from './labs-fixtures';

/**
 * Windows labs over RDP: the browser's Guacamole tunnel → our /ws/labs/rdp/{name} → guacd (a fake
 * that checks our handshake) → the lab (a Google Compute Engine instance on the Compute fake).
 */
interface Ws {
  readonly protocol: string;
  send(data: string): void;
  close(): void;
  on(event: 'message', cb: (data: Buffer) => void): void;
  once(event: 'open', cb: () => void): void;
  once(event: 'error', cb: (e: Error) => void): void;
  once(event: 'close', cb: (code: number, reason: Buffer) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, protocols?: string[]) => Ws;

const dir = mkdtempSync(path.join(tmpdir(), 'hc-rdp-'));
const key = serviceAccountKey(dir);
let compute: Awaited<ReturnType<typeof startFakeCompute>>;
let guacd: Awaited<ReturnType<typeof startFakeGuacd>>;
let t: TestApp;
let base: string;
let provider: string;
let learner: string;
let learnerId: number;
let other: string;
let win: { vm_name: string; username: string; password: string };

beforeAll(async () => {
  compute = await startFakeCompute(3514, key.publicKey);
  guacd = await startFakeGuacd(3515);
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    LAB_PROVIDER: 'gce',
    GCE_KEY_FILE: key.file,
    GCE_API_ENDPOINT: compute.url,
    GUACD_HOST: '127.0.0.1',
    GUACD_PORT: '3515',
  });
  t.deps.labs = new GceLabs(t.deps.config, { pollMs: 5 });
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  const l = await t.loginAs({ role: 'provider_user', provider_id: p.user.id });
  learner = l.token;
  learnerId = l.user.id;
  other = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  const made = await t.post(
    'gc-create-vm',
    linuxVm({ image: 'windows', protocol: 'rdp', ram: 4, storage: 50 }),
    provider,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  win = made.body.list[0];
  const assigned = await t.post(
    'assign-vm-to-user',
    { first_name: 'Win', last_name: 'Learner', email: l.user.email, mobile_no: '9876543210', name: win.vm_name },
    provider,
  );
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(async () => {
  await t.close();
  await guacd.close();
  await compute.close();
  rmSync(dir, { recursive: true, force: true });
});

/** a browser's tunnel: subprotocol guacamole, the session token as a second subprotocol */
function tunnel(name: string, token: string | null) {
  const ws = new WebSocket(`${base}/ws/labs/rdp/${name}`, ['guacamole', ...(token ? [`auth.${token}`] : [])]);
  const reader = new InstructionReader();
  const received: string[][] = [];
  const raw: string[] = [];
  const waiters: { test: () => boolean; done: () => void }[] = [];
  ws.on('message', (data) => {
    raw.push(data.toString());
    received.push(...reader.push(data.toString()).instructions);
    for (const w of waiters.splice(0)) (w.test() ? w.done : () => waiters.push(w))();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('error', () => resolve(false));
  });
  const until = (test: () => boolean) =>
    new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, done: resolve })));
  return { ws, received, raw, closed, opened, until };
}

describe('/ws/labs/rdp/{name} through guacd', () => {
  it('refuses without a session (4401), to someone else (4404) and before the lab is started (4409)', async () => {
    const anon = tunnel(win.vm_name, null);
    expect(await anon.closed).toEqual({ code: 4401, reason: String(0x0301) });
    const stranger = tunnel(win.vm_name, other);
    expect(await stranger.closed).toEqual({ code: 4404, reason: String(0x0204) });
    // a learner of the same tenant the lab is not assigned to
    const [owner] = await t.deps.db.select().from(users).where(eq(users.id, learnerId));
    const classmate = (await t.loginAs({ role: 'provider_user', provider_id: owner!.provider_id })).token;
    expect((await tunnel(win.vm_name, classmate).closed).code).toBe(4404);
    const missing = tunnel('tl-doesnotexist', provider);
    expect((await missing.closed).code).toBe(4404);
    const early = tunnel(win.vm_name, learner);
    expect(await early.closed).toEqual({ code: 4409, reason: String(0x0205) });
    expect(guacd.sessions.length).toBe(0);
  });

  it('the assigned learner gets the desktop: our handshake to guacd, the drawing relayed, input forwarded, pings answered', async () => {
    const started = await t.post('vm-start-stop', { action: 'start', name: win.vm_name, is_user: 1 }, learner);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const before = guacd.sessions.length;
    const tab = tunnel(win.vm_name, learner);
    expect(await tab.opened).toBe(true);
    expect(tab.ws.protocol).toBe('guacamole');
    await tab.until(() => tab.received.some((i) => i[0] === 'sync'));
    // the tunnel's id first, then what guacd drew after ready (never `ready` itself)
    expect(tab.received[0]![0]).toBe('');
    expect(tab.received[0]![1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tab.received.slice(1).map((i) => i[0])).toEqual(['size', 'rect', 'cfill', 'sync']);

    const session = guacd.sessions[before]!;
    expect(session.received.map((i) => i[0])).toEqual([
      'select',
      'size',
      'audio',
      'video',
      'image',
      'timezone',
      'connect',
    ]);
    expect(session.received[0]).toEqual(['select', 'rdp']);
    expect(session.received[1]).toEqual(['size', '1296', '765', '96']);
    expect(session.connect).toEqual({
      VERSION_1_5_0: 'VERSION_1_5_0',
      hostname: '127.0.0.1',
      port: '3389',
      username: win.username,
      password: win.password,
      'ignore-cert': 'true',
      security: 'any',
      domain: '',
    });
    expect(GUACD_ARGS.length).toBe(8);

    // a key press reaches guacd; the tunnel's keep-alive is answered by us and goes no further
    tab.ws.send(encodeInstruction(['', 'ping', '1234']) + encodeInstruction(['key', '65', '1']));
    await tab.until(() => tab.received.filter((i) => i[0] === 'sync').length >= 2);
    await tab.until(() => tab.received.some((i) => i[0] === '' && i[1] === 'ping'));
    expect(tab.received.find((i) => i[0] === '' && i[1] === 'ping')).toEqual(['', 'ping', '1234']);
    expect(session.received.at(-1)).toEqual(['key', '65', '1']);
    expect(session.received.some((i) => i[0] === '')).toBe(false);
    // only whole instructions travel to the browser, and the lab's password never does
    for (const message of tab.raw) expect(message.endsWith(';')).toBe(true);
    expect(tab.raw.join('')).not.toContain(win.password);

    tab.ws.close();
    await tab.closed;
    await new Promise((r) => setTimeout(r, 100));
    expect(session.closed).toBe(true);
  });

  it('a manager of the lab’s tenant may open it too; guacd refusing or gone closes with 4503', async () => {
    const tab = tunnel(win.vm_name, provider);
    await tab.until(() => tab.received.some((i) => i[0] === 'sync'));
    tab.ws.close();
    await tab.closed;

    guacd.state.refuse = true;
    const refused = tunnel(win.vm_name, provider);
    expect(await refused.closed).toEqual({ code: 4503, reason: String(0x0207) });
    guacd.state.refuse = false;

    const config = t.deps.config as { GUACD_PORT: number };
    config.GUACD_PORT = 3516; // nothing listens there
    const unreachable = tunnel(win.vm_name, provider);
    expect((await unreachable.closed).code).toBe(4503);
    config.GUACD_PORT = 3515;
  });

  it('a browser that stops reading pauses guacd: what guacd can write stops growing, reading again resumes it', async () => {
    const tab = tunnel(win.vm_name, provider);
    await tab.until(() => tab.received.some((i) => i[0] === 'sync'));
    const session = guacd.sessions.at(-1)!;
    const tcp = (tab.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    guacd.state.flood = true;
    tcp.pause();
    // the key press makes guacd draw as fast as its socket takes it
    tab.ws.send(encodeInstruction(['key', '65', '1']));
    await wait(1500);
    const stalled = session.flooded;
    await wait(1000);
    // bounded: the kernel's buffers and 1 MiB of ours, then guacd is not read any more
    expect(stalled).toBeLessThan(32 * 1024 * 1024);
    expect(session.flooded - stalled).toBeLessThan(1024 * 1024);
    tcp.resume();
    // what waited is read, then guacd is read again
    for (let i = 0; i < 100 && session.flooded <= stalled; i++) await wait(50);
    expect(session.flooded).toBeGreaterThan(stalled);
    guacd.state.flood = false;
    tab.ws.close();
    await tab.closed;
  });

  it('without GUACD_HOST: the lab screen and /api/health say so, the socket closes with 4503', async () => {
    const config = t.deps.config as { GUACD_HOST?: string };
    const conn = await t.post('vm-connection', { name: win.vm_name }, learner);
    expect(conn.status).toBe(200);
    expect(conn.body).toMatchObject({ rdp: true, terminal: false, rdp_problem: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().rdp).toBe('ok');
    config.GUACD_HOST = undefined;
    try {
      const without = await t.post('vm-connection', { name: win.vm_name }, learner);
      expect(without.body.rdp_problem).toBe(RDP_GATEWAY_MISSING);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().rdp).toBe(RDP_GATEWAY_MISSING);
      const tab = tunnel(win.vm_name, learner);
      expect(await tab.closed).toEqual({ code: 4503, reason: String(0x0207) });
    } finally {
      config.GUACD_HOST = '127.0.0.1';
    }
    // a Linux lab has no gateway problem to report
    const linux = await t.post('gc-create-vm', linuxVm(), provider);
    const l = await t.post('vm-connection', { name: linux.body.list[0].vm_name }, provider);
    expect(l.body).toMatchObject({ rdp: false, rdp_problem: null });
  });
});

describe('Guacamole instructions', () => {
  it('encode lengths in code points and parse across chunk boundaries', () => {
    expect(encodeInstruction(['clipboard', 'héllo 👋'])).toBe('9.clipboard,7.héllo 👋;');
    const reader = new InstructionReader();
    const text = encodeInstruction(['key', '65', '1']) + encodeInstruction(['clipboard', 'a👋b']);
    const split = Buffer.from(text);
    const first = reader.push(split.subarray(0, 20));
    const second = reader.push(split.subarray(20));
    expect([...first.instructions, ...second.instructions]).toEqual([
      ['key', '65', '1'],
      ['clipboard', 'a👋b'],
    ]);
    expect(first.raw + second.raw).toBe(text);
    expect(() => new InstructionReader().push('x.abc;')).toThrow();
  });
});
