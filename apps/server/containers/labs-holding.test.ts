import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labNamespace } from '../src/adapters/labs/namespace';
import { users, vms } from '../src/db/schema';
import { createTestApp, type TestApp } from '../test/helpers';
import { closeCode, openLabSocket, type Ws } from '../test/lab-sockets';
import { labAccount, linuxVm, makeVm } from '../test/labs-fixtures';
import { type LabEngineApp, labImage, startLabEngineApp, stopLabEngineApp } from './lab-engine-app';
import { labShell } from './lab-shell';

/**
 * Labs under a real class (issue 39), against the real engine, as a learner with one lab would try
 * it: a terminal that stops being read while the lab prints, a terminal kept open past its logout,
 * a reload, terminals opened and closed again and again, labs past what the host has, a lab that
 * eats its memory. LAB_IMAGE (environment) picks the image, e.g. a test build with tmux.
 */

const docker = new Docker();
const MB = 1024 ** 2;
let t: TestApp;
let base: string;
let provider: string;
let app: LabEngineApp | undefined;
const made: string[] = [];

beforeAll(async () => {
  app = await startLabEngineApp('tl-labs-holding-');
  ({ t, base, provider } = app);
}, 120_000);

afterAll(() => stopLabEngineApp(app, made), 120_000);

async function startedLab(token = provider, over: Record<string, unknown> = {}) {
  const v = await makeVm(t, token, over);
  made.push(v.vm_name);
  const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, token);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return v;
}
const stop = (name: string, token = provider) => t.post('vm-start-stop', { action: 'stop', name }, token);

const container = (name: string) => docker.getContainer(`trainlab-${labNamespace(t.deps.config)}-${name}`);

/** what a command prints in the lab, run through the engine (not through our sockets) */
async function inLab(name: string, cmd: string): Promise<string> {
  const exec = await container(name).exec({ Cmd: ['sh', '-c', cmd], User: '1000:1000', AttachStdout: true });
  const stream = await exec.start({});
  // without a TTY the engine frames the output: stdout's bytes come out of the demultiplexer
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  docker.modem.demuxStream(stream, stdout, new PassThrough().resume());
  await new Promise<void>((resolve) => stream.on('end', resolve));
  return out;
}

const settle = async () => {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 500));
};

/**
 * A reader that stops reading (flood-reader.mjs), run in a process of its own so that only the
 * server is in this process's memory: it floods for 1 s, stops reading for 30 s while this samples
 * the RSS (after a collection, when the runner exposes one: what the server holds, not garbage it
 * has not yet freed), then reads again. Answers the largest growth over the RSS before it began, and
 * the bytes the reader had at the pause and in all.
 */
async function floodWithReaderStopped(kind: 'terminal' | 'vnc', name: string) {
  await settle();
  const before = process.memoryUsage().rss;
  const reader = spawn(
    process.execPath,
    [fileURLToPath(new URL('./flood-reader.mjs', import.meta.url)), base, kind, name, provider, '30'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: reader.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      reader.once('exit', (code) => reject(new Error(`the reader exited with ${code}`)));
    });
  expect(await next()).toBe('paused');
  const done = next();
  let peak = 0;
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    (globalThis as { gc?: () => void }).gc?.();
    peak = Math.max(peak, process.memoryUsage().rss - before);
  }
  const { atPause, total } = JSON.parse(await done) as { atPause: number; total: number };
  console.log(
    `${kind} flood: RSS grew at most ${(peak / MB).toFixed(1)} MB over 30 s (received ${atPause} bytes, then ${total - atPause} more)`,
  );
  return { peak, atPause, total };
}

describe('a reader that stops reading', () => {
  it('the terminal: the lab prints for 30 s into a socket nobody reads; the server grows less than 50 MB', async () => {
    const a = await startedLab();
    const sh = await labShell(base, a.vm_name, provider);
    await sh.run('echo ready');
    // closed first: a second client of the same tmux session, in this process, would read the flood
    sh.close();
    const { peak, atPause, total } = await floodWithReaderStopped('terminal', a.vm_name);
    expect(peak).toBeLessThan(50 * MB);
    // the lab was paused, not dropped: reading again brings its output
    expect(atPause).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(atPause);
    await stop(a.vm_name);
  }, 180_000);
});

describe('a viewer that stops reading', () => {
  it('the desktop: full screens asked for 30 s and none read; the server grows less than 50 MB', async () => {
    const a = await startedLab();
    const { peak, atPause, total } = await floodWithReaderStopped('vnc', a.vm_name);
    expect(peak).toBeLessThan(50 * MB);
    expect(atPause).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(atPause);
    await stop(a.vm_name);
  }, 180_000);
});

describe('sessions end with their right', () => {
  it('a logout closes the open terminals within 5 s; the old token opens none again', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    await labAccount(t, token);
    const a = await startedLab(token);
    const sh = await labShell(base, a.vm_name, token);
    await sh.run('echo before');
    const shClosed = closeCode(sh.ws);
    const { ws } = await openLabSocket(base, 'terminal', a.vm_name, token);
    const closed = closeCode(ws);
    const out = await t.post('logout', {}, token);
    expect(out.status).toBe(200);
    const at = Date.now();
    const code = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
    expect(code).toBe(4401);
    expect(Date.now() - at).toBeLessThan(5000);
    // the other terminal of that session is closed too, and the old token opens nothing again
    expect(await shClosed).toBe(4401);
    const again = await openLabSocket(base, 'terminal', a.vm_name, token);
    expect(again.code ?? (await closeCode(again.ws))).toBe(4401);
  }, 120_000);

  it("a deactivation and a role change each close that person's open terminal within 5 s", async () => {
    const within5s = (ws: Ws) =>
      Promise.race([closeCode(ws), new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
    const first = await t.loginAs({ role: 'provider' });
    await labAccount(t, first.token);
    const a = await startedLab(first.token);
    const open1 = await openLabSocket(base, 'terminal', a.vm_name, first.token);
    const closed1 = within5s(open1.ws);
    // what the admin's deactivation writes
    await t.deps.db.update(users).set({ status: 0 }).where(eq(users.id, first.user.id));
    expect(await closed1).toBe(4401);

    const second = await t.loginAs({ role: 'provider' });
    await labAccount(t, second.token);
    const b = await startedLab(second.token);
    const open2 = await openLabSocket(base, 'terminal', b.vm_name, second.token);
    const closed2 = within5s(open2.ws);
    // what a role change writes: no longer a manager of the lab's tenant
    await t.deps.db
      .update(users)
      .set({ roles: ['learner'] })
      .where(eq(users.id, second.user.id));
    expect(await closed2).toBe(4404);
    await t.deps.labs.stop(a.vm_name);
    await t.deps.labs.stop(b.vm_name);
  }, 120_000);

  it('a reload returns to the same shell; closed terminals leave no process behind', async () => {
    const a = await startedLab();
    const first = await labShell(base, a.vm_name, provider);
    await first.run('export TL_KEPT=kept-$((40+2)); { sleep 987 & } ');
    first.close();
    await new Promise((r) => setTimeout(r, 1500));
    const again = await labShell(base, a.vm_name, provider);
    const said = await again.run('echo "kept=$TL_KEPT sleeps=$(pgrep -c -x sleep)"');
    expect(said).toContain('kept=kept-42 sleeps=1');
    again.close();
    await new Promise((r) => setTimeout(r, 1500));
    // the lab's processes outside its desktop (whose terminal may restart its own shell at any time)
    const count = async () => {
      const rows = (await inLab(a.vm_name, 'ps -eo pid=,ppid=,args='))
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .map(([pid, ppid, ...args]) => ({ pid: pid!, ppid: ppid!, args: args.join(' ') }));
      const desktop = new Set(
        rows.filter((r) => r.args.startsWith('/bin/sh /usr/local/bin/trainlab-lab-start')).map((r) => r.pid),
      );
      for (let grew = true; grew; ) {
        grew = false;
        for (const r of rows) {
          if (desktop.has(r.ppid) && !desktop.has(r.pid)) {
            desktop.add(r.pid);
            grew = true;
          }
        }
      }
      return rows.filter((r) => !desktop.has(r.pid) && !r.args.startsWith('ps ')).length;
    };
    const start = await count();
    expect(start).toBeGreaterThan(3);
    for (let i = 0; i < 3; i++) {
      const sh = await labShell(base, a.vm_name, provider);
      await sh.run('echo cycle');
      sh.close();
      await new Promise((r) => setTimeout(r, 1500));
    }
    expect(await count()).toBe(start);
    await stop(a.vm_name);
  }, 180_000);
});

describe("the host's capacity", () => {
  const GB = 1024 ** 3;

  it('a lab larger than the host is refused at create and at start', async () => {
    const { MemTotal } = (await docker.info()) as { MemTotal: number };
    const hostGb = MemTotal / GB;
    if (32 > hostGb) {
      const res = await t.post('gc-create-vm', { ...linuxVm(), ram: 32 }, provider);
      expect(res.status).toBe(422);
      expect(res.body.other_error[0]).toMatch(/A lab of 32 GB cannot run on this lab host: it has [\d.]+ GB/);
    }
    // a lab recorded larger than this host (made on another, or before the check): its start is refused
    const v = await makeVm(t, provider);
    made.push(v.vm_name);
    const over = Math.ceil(hostGb) + 1;
    await t.deps.db.update(vms).set({ ram: over }).where(eq(vms.vm_name, v.vm_name));
    const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, provider);
    expect(start.status).toBe(422);
    expect(start.body.other_error[0]).toContain(`A lab of ${over} GB cannot run on this lab host`);
    expect(await t.deps.labs.status(v.vm_name)).toBe('stopped');
  }, 120_000);

  it("starts past the host's memory less its reserve are refused, and admitted again once a lab stops", async () => {
    const { MemTotal } = (await docker.info()) as { MemTotal: number };
    const dir = mkdtempSync(path.join(tmpdir(), 'tl-labs-capacity-'));
    // room for two requests of 1 GB and a half: the third start does not fit
    const reserve = Math.floor(MemTotal / MB) - 2 * 1024 - 512;
    const c = await createTestApp({
      LAB_PROVIDER: 'container',
      DATA_DIR: dir,
      LOGIN_RATE_LIMIT: '1000',
      LAB_MEMORY_REQUEST_MB: '1024',
      LAB_MEMORY_RESERVE_MB: String(reserve),
      ...labImage,
    });
    const names: string[] = [];
    try {
      const manager = (await c.loginAs({ role: 'provider' })).token;
      await labAccount(c, manager);
      for (let i = 0; i < 3; i++) names.push((await makeVm(c, manager)).vm_name);
      const start = (name: string) => c.post('vm-start-stop', { action: 'start', name }, manager);
      // two at once: admissions are one at a time, both fit
      const [one, two] = await Promise.all([start(names[0]!), start(names[1]!)]);
      expect([one.status, two.status]).toEqual([200, 200]);
      const third = await start(names[2]!);
      expect(third.status).toBe(422);
      expect(third.body.other_error[0]).toMatch(
        /^The lab host is full: its 2 running labs hold 2 of the 2\.5 GB it gives labs, and this lab needs 1 GB more\./,
      );
      const capacity = await c.deps.labs.capacity!();
      expect(capacity).toMatchObject({ hostMemory: MemTotal, running: 2, requested: 2 * GB });
      expect((await c.post('vm-start-stop', { action: 'stop', name: names[0] }, manager)).status).toBe(200);
      expect((await start(names[2]!)).status).toBe(200);
    } finally {
      for (const name of names) await c.deps.labs.delete(name).catch(() => undefined);
      await c.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it("labs are the kernel's first choice when memory runs out; a lab past its own limit is killed, the server is not", async () => {
    const v = await makeVm(t, provider);
    made.push(v.vm_name);
    // made again at 1 GB (the smallest size the form offers is 2): less to fill before the kill
    await t.deps.labs.delete(v.vm_name);
    await t.deps.db.update(vms).set({ ram: 1 }).where(eq(vms.vm_name, v.vm_name));
    const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, provider);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const info = await container(v.vm_name).inspect();
    expect(info.HostConfig.OomScoreAdj).toBe(1000);
    expect(info.HostConfig.Memory).toBe(GB);
    expect(await inLab(v.vm_name, 'cat /proc/1/oom_score_adj /proc/self/oom_score_adj')).toMatch(/^1000\s+1000\s*$/);
    // one line without an end: tail keeps all of it in memory, past the lab's 1 GB
    const said = await inLab(v.vm_name, 'head -c 1600M /dev/zero | tail >/dev/null; echo "exit=$?"');
    expect(said).toContain('exit=137');
    expect(await t.deps.labs.status(v.vm_name)).toBe('running');
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    await stop(v.vm_name);
  }, 180_000);
});
