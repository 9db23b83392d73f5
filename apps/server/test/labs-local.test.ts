import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_USER_PREFIX, LocalLabs } from '../src/adapters/labs/local';
import { createTestApp, type TestApp } from './helpers';
import { closeCode, openLabSocket } from './lab-sockets';
import { labAccount, linuxVm, makeVm } from './labs-fixtures';

/**
 * The local engine for real: a lab account on this host, our SSH server and an Xvnc desktop,
 * reached through our WebSockets. Needs root and the packages of .ci/run (openssh-server,
 * tigervnc-standalone-server, xterm). Every account it makes starts with tllab_ and is deleted.
 */

let t: TestApp;
let base: string;
let dataDir: string;
let provider: string;
const made: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tl-labs-'));
  const sshPort = String(23000 + Math.floor(Math.random() * 1000));
  t = await createTestApp({
    LAB_PROVIDER: 'local',
    DATA_DIR: dataDir,
    LAB_SSH_PORT: sshPort,
    LOGIN_RATE_LIMIT: '1000',
  });
  provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
}, 120_000);

afterAll(async () => {
  const engine = t.deps.labs;
  for (const name of made) await engine.delete(name).catch(() => undefined);
  // our SSH server for this test's labs
  const pidFile = path.join(dataDir, 'labs', 'sshd.pid');
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
  if (pid) process.kill(pid, 'SIGTERM');
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const open = (kind: 'terminal' | 'vnc', name: string, token: string | null) => openLabSocket(base, kind, name, token);

describe('local lab engine', () => {
  it('is ready here and reports so in /api/health', async () => {
    expect(await t.deps.labs.problem()).toBeNull();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({ status: 'ok', labs: { engine: 'local', ready: true } });
  });

  it('missing packages give a clear message on the calls and in /api/health, not a crash', async () => {
    const real = t.deps.labs;
    const v = await makeVm(t, provider);
    made.push(v.username);
    t.deps.labs = new LocalLabs(t.deps.config, dataDir);
    try {
      const expected =
        'The local lab engine needs the Debian packages openssh-server tigervnc-standalone-server xterm (missing: useradd, userdel, usermod, chpasswd, sshd, ssh-keygen, Xvnc). Install them with: apt-get install -y openssh-server tigervnc-standalone-server xterm';
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok', labs: { engine: 'local', ready: false, problem: expected } });
      const create = await t.post('gc-create-vm', linuxVm(), provider);
      expect(create).toEqual({ status: 422, body: { other_error: [expected] } });
      const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, provider);
      expect(start).toEqual({ status: 422, body: { other_error: [expected] } });
      expect((await t.post('vm-connection', { name: v.vm_name }, provider)).body.problem).toBe(expected);
    } finally {
      t.deps.labs = real;
    }
  });

  it('create → start → terminal echo and a drawing desktop → stop → delete, through our WebSockets', async () => {
    const v = await makeVm(t, provider);
    made.push(v.username);
    expect(v.username.startsWith(LAB_USER_PREFIX), v.username).toBe(true);
    expect(await t.deps.labs.status(v.username)).toBe('stopped');

    // not started: the socket is refused
    const early = await open('terminal', v.vm_name, provider);
    expect(await closeCode(early.ws)).toBe(4409);

    const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, provider);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(await t.deps.labs.status(v.username)).toBe('running');

    // no session, or another tenant's manager: refused
    const anon = await open('terminal', v.vm_name, null);
    expect(await closeCode(anon.ws)).toBe(4401);
    const stranger = (await t.loginAs({ role: 'provider' })).token;
    const other = await open('terminal', v.vm_name, stranger);
    expect(await closeCode(other.ws)).toBe(4404);

    const { ws } = await open('terminal', v.vm_name, provider);
    expect(ws.protocol).toBe('tl-terminal');
    let out = '';
    ws.on('message', (d) => {
      out += d.toString();
    });
    ws.send(JSON.stringify({ type: 'data', data: 'echo hello-$((40+2))-lab; whoami\n' }));
    const deadline = Date.now() + 15_000;
    while (!out.includes('hello-42-lab') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain('hello-42-lab');
    expect(out).toContain(v.username);
    ws.close();

    // the desktop: the VNC server's greeting comes through the proxy
    const desk = await open('vnc', v.vm_name, provider);
    const greeting = await new Promise<string>((resolve) => desk.ws.on('message', (d) => resolve(d.toString())));
    expect(greeting).toMatch(/^RFB 003\.00\d\n/);
    desk.ws.close();

    // a machine that shows another host key than the engine's own is refused: no shell is opened
    const pub = path.join(dataDir, 'labs', 'ssh_host_ed25519_key.pub');
    const real = readFileSync(pub, 'utf8');
    const otherKey = path.join(dataDir, 'other_key');
    execFileSync('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', otherKey]);
    writeFileSync(pub, readFileSync(`${otherKey}.pub`, 'utf8'));
    try {
      const imposter = await open('terminal', v.vm_name, provider);
      expect(await closeCode(imposter.ws)).toBe(4503);
    } finally {
      writeFileSync(pub, real);
    }

    const stop = await t.post('vm-start-stop', { action: 'stop', name: v.vm_name }, provider);
    expect(stop.body.status).toBe(2);
    expect(await t.deps.labs.status(v.username)).toBe('stopped');
    const details = await t.post('vm-details', { name: v.vm_name }, provider);
    expect(details.body.usage).toHaveLength(1);
    expect(details.body.usage[0].status).toBe(3);

    expect((await t.post('vm-delete', { name: v.vm_name }, provider)).status).toBe(200);
    expect(await t.deps.labs.status(v.username)).toBe('missing');
  }, 90_000);
});
