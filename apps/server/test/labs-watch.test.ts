import { createRequire } from 'node:module';
import net from 'node:net';
import { VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LabEndpoint, MemoryLabs } from '../src/adapters/labs';
import { vms } from '../src/db/schema';
import { RfbViewOnlyFilter, ViewOnlyViolation } from '../src/domains/labs/rfb-view-only';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, makeVm } from './labs-fixtures';
import { makeTraining, person } from './trainings-fixtures';

/**
 * The instructor's over-the-shoulder view: the listing call, who may watch, and the proxy dropping
 * a watcher's input before it reaches the lab's VNC server (a real TCP server here that records
 * every byte it receives).
 */
interface Ws {
  readonly readyState: number;
  send(data: Buffer): void;
  close(): void;
  once(event: 'open', cb: () => void): void;
  once(event: 'error', cb: (e: Error) => void): void;
  once(event: 'close', cb: (code: number) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, protocols?: string[]) => Ws;

/** The simulated engine, with its running labs' desktops on one recording VNC server. */
class WatchedLabs extends MemoryLabs {
  constructor(private readonly port: () => number) {
    super();
  }
  override async connection(ref?: string): Promise<LabEndpoint> {
    return this.machines.get(ref ?? '') === 'running' ? { vnc: { host: '127.0.0.1', port: this.port() } } : {};
  }
}

let t: TestApp;
let base: string;
let vncServer: net.Server;
const received: Buffer[] = [];
let provider: string;
let other: string;
let trainer: string;
let outsider: string;
let learner: string;
let slug: string;
let vmName: string;

beforeAll(async () => {
  vncServer = net.createServer((sock) => {
    sock.on('data', (d) => received.push(Buffer.from(d)));
    sock.write('RFB 003.008\n');
  });
  await new Promise<void>((r) => vncServer.listen(0, '127.0.0.1', r));
  const port = (vncServer.address() as net.AddressInfo).port;
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory' });
  t.deps.labs = new WatchedLabs(() => port);
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  other = (await t.loginAs({ role: 'provider' })).token;
  const tr = await t.loginAs({ role: 'trainer' });
  trainer = tr.token;
  outsider = (await t.loginAs({ role: 'trainer' })).token;
  await labAccount(t, provider);
  await labAccount(t, other);
  const training = await makeTraining(t, provider);
  slug = training.slug;
  const res = await t.post('assign-trainers-to-training', { slug, trainer_ids: [tr.user.id] }, provider);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const l = await t.loginAs({ role: 'provider_user', provider_id: p.user.id, first_name: 'Meera', last_name: 'Iyer' });
  learner = l.token;
  const who = person('watch', { first_name: 'Meera', last_name: 'Iyer', email: l.user.email });
  expect((await t.post('lp/add-training-user', { ...who, slug }, provider)).status).toBe(200);
  const vm = await makeVm(t, provider);
  vmName = vm.vm_name;
  expect((await t.post('assign-vm-to-user', { ...who, name: vmName }, provider)).status).toBe(200);
  expect((await t.post('vm-start-stop', { action: 'start', name: vmName }, provider)).status).toBe(200);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => vncServer.close(r));
});

const open = (path: string, token: string) =>
  new Promise<{ ws: Ws; code?: number }>((resolve) => {
    const ws = new WebSocket(`${base}${path}`, ['binary', `auth.${token}`]);
    ws.once('open', () => resolve({ ws }));
    ws.once('error', () => resolve({ ws, code: -1 }));
  });
const closeCode = (ws: Ws) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
const settle = () => new Promise((r) => setTimeout(r, 300));

// client messages (RFC 6143 §7.5)
const VERSION = Buffer.from('RFB 003.008\n');
const SECURITY_NONE = Buffer.from([1]);
const CLIENT_INIT_EXCLUSIVE = Buffer.from([0]);
const SET_ENCODINGS = Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]);
const UPDATE_REQUEST = Buffer.from([3, 1, 0, 0, 0, 0, 5, 16, 2, 253]);
const KEY_A = Buffer.from([4, 1, 0, 0, 0, 0, 0, 0x61]);
const POINTER_CLICK = Buffer.from([5, 1, 0, 10, 0, 20]);
const CUT_TEXT = Buffer.concat([Buffer.from([6, 0, 0, 0, 0, 0, 0, 2]), Buffer.from('hi')]);
const QEMU_KEY = Buffer.from([255, 0, 0, 1, 0, 0, 0, 0x61, 0, 0, 0, 30]);
const RESIZE = Buffer.concat([Buffer.from([251, 0, 4, 0, 3, 0, 1, 0]), Buffer.alloc(16)]);

describe('/training-lab-views', () => {
  it('lists the enrolled learners’ labs with a view-only desktop address for the training’s moderators', async () => {
    for (const token of [provider, trainer]) {
      const res = await t.post('training-lab-views', { slug }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        slug,
        list: [
          {
            user_id: expect.any(Number),
            first_name: 'Meera',
            last_name: 'Iyer',
            vm_name: vmName,
            name: expect.any(String),
            status: VM_STATUS.start,
            desktop: true,
            view_path: `/ws/labs/vnc/${vmName}?view=${slug}`,
          },
        ],
      });
    }
  });

  it('401 without a session, 403 for learners, 404 for other tenants and unassigned trainers, 422 without slug', async () => {
    expect((await t.post('training-lab-views', { slug })).status).toBe(401);
    expect((await t.post('training-lab-views', { slug }, learner)).status).toBe(403);
    expect((await t.post('training-lab-views', { slug }, other)).status).toBe(404);
    expect((await t.post('training-lab-views', { slug }, outsider)).status).toBe(404);
    const bad = await t.post('training-lab-views', { slug: '' }, provider);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body)).toEqual(['slug']);
  });

  it('a stopped lab is listed without a desktop to watch', async () => {
    expect((await t.post('vm-start-stop', { action: 'stop', name: vmName }, provider)).status).toBe(200);
    const res = await t.post('training-lab-views', { slug }, trainer);
    expect(res.body.list[0]).toMatchObject({ status: VM_STATUS.stop, desktop: false, view_path: null });
    expect((await t.post('vm-start-stop', { action: 'start', name: vmName }, provider)).status).toBe(200);
  });
});

describe('the view-only desktop socket', () => {
  it('a watcher’s keys, pointer, clipboard and resizes never reach the VNC server; updates do', async () => {
    received.length = 0;
    const { ws, code } = await open(`/ws/labs/vnc/${vmName}?view=${slug}`, trainer);
    expect(code).toBeUndefined();
    // split across frames the way a browser may send them
    ws.send(Buffer.concat([VERSION, SECURITY_NONE]));
    ws.send(CLIENT_INIT_EXCLUSIVE);
    ws.send(Buffer.concat([SET_ENCODINGS, UPDATE_REQUEST, KEY_A.subarray(0, 3)]));
    ws.send(Buffer.concat([KEY_A.subarray(3), POINTER_CLICK, CUT_TEXT, QEMU_KEY, RESIZE, UPDATE_REQUEST]));
    await settle();
    expect(Buffer.concat(received)).toEqual(
      // ClientInit always asks for a shared session
      Buffer.concat([VERSION, SECURITY_NONE, Buffer.from([1]), SET_ENCODINGS, UPDATE_REQUEST, UPDATE_REQUEST]),
    );
    // a watcher does not count as the learner's connection (the idle stop still sees none)
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, vmName));
    expect(row!.connections).toBe(0);
    ws.close();
  });

  it('the same bytes on the learner’s own socket do reach it (the filter is what stops them)', async () => {
    received.length = 0;
    const { ws, code } = await open(`/ws/labs/vnc/${vmName}`, learner);
    expect(code).toBeUndefined();
    ws.send(Buffer.concat([VERSION, SECURITY_NONE, CLIENT_INIT_EXCLUSIVE, KEY_A, POINTER_CLICK]));
    await settle();
    expect(Buffer.concat(received)).toEqual(
      Buffer.concat([VERSION, SECURITY_NONE, CLIENT_INIT_EXCLUSIVE, KEY_A, POINTER_CLICK]),
    );
    ws.close();
  });

  it('an unknown message ends the watcher’s connection', async () => {
    received.length = 0;
    const { ws } = await open(`/ws/labs/vnc/${vmName}?view=${slug}`, provider);
    const closed = closeCode(ws);
    ws.send(Buffer.concat([VERSION, SECURITY_NONE, CLIENT_INIT_EXCLUSIVE, Buffer.from([99, 1, 2, 3])]));
    expect(await closed).toBe(1000);
    await settle();
    expect(Buffer.concat(received).includes(Buffer.from([99, 1, 2, 3]))).toBe(false);
  });

  it('only the training’s moderators may watch: learners, unassigned trainers and other tenants get 4404', async () => {
    for (const token of [learner, outsider, other]) {
      const { ws } = await open(`/ws/labs/vnc/${vmName}?view=${slug}`, token);
      expect(await closeCode(ws)).toBe(4404);
    }
    // an assigned trainer has no way in without the view mode
    const { ws } = await open(`/ws/labs/vnc/${vmName}`, trainer);
    expect(await closeCode(ws)).toBe(4404);
    // a lab that is not a learner's of this training
    const stray = await makeVm(t, provider);
    expect((await t.post('vm-start-stop', { action: 'start', name: stray.vm_name }, provider)).status).toBe(200);
    const s = await open(`/ws/labs/vnc/${stray.vm_name}?view=${slug}`, provider);
    expect(await closeCode(s.ws)).toBe(4404);
  });
});

describe('RfbViewOnlyFilter', () => {
  it('passes the handshake and viewer messages byte by byte, drops input, refuses what it does not know', () => {
    const f = new RfbViewOnlyFilter();
    const all = Buffer.concat([
      VERSION,
      Buffer.from([2]),
      Buffer.alloc(16, 7),
      Buffer.from([0]),
      KEY_A,
      UPDATE_REQUEST,
    ]);
    const out = Buffer.concat([...all].map((b) => f.push(Buffer.from([b]))));
    expect(out).toEqual(
      Buffer.concat([VERSION, Buffer.from([2]), Buffer.alloc(16, 7), Buffer.from([1]), UPDATE_REQUEST]),
    );
    expect(f.dropped).toBe(1);
    expect(() => new RfbViewOnlyFilter().push(Buffer.from('RFB 003.003\n'))).toThrow(ViewOnlyViolation);
    const g = new RfbViewOnlyFilter();
    g.push(Buffer.concat([VERSION, Buffer.from([19])]).subarray(0, 12));
    expect(() => g.push(Buffer.from([19]))).toThrow(ViewOnlyViolation);
  });
});
