import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_LABEL, NAMESPACE_LABEL, WINDOWS_NOT_HERE } from '../src/adapters/labs/container';
import { labNamespace } from '../src/adapters/labs/namespace';
import { vms } from '../src/db/schema';
import { reconcileOrphans } from '../src/domains/labs/orphans';
import type { TestApp } from '../test/helpers';
import { closeCode, openLabSocket } from '../test/lab-sockets';
import { makeVm } from '../test/labs-fixtures';
import { type LabEngineApp, startLab, startLabEngineApp, stopLabEngineApp } from './lab-engine-app';
import { connectCommand, labShell } from './lab-shell';

/**
 * The container lab engine against the real Docker engine (.ci/run installs docker.io, starts dockerd
 * and builds the lab image). A shell in lab A, opened through the product's own terminal socket, tries
 * what an attacker with one lab would try first; every attempt must fail while the lab itself works.
 */

const docker = new Docker();
let t: TestApp;
let base: string;
let apiPort = 0;
let dataDir: string;
let provider: string;
let app: LabEngineApp | undefined;
const made: string[] = [];

beforeAll(async () => {
  app = await startLabEngineApp('tl-labs-container-', {}, '0.0.0.0');
  ({ t, base, dataDir, provider } = app);
  apiPort = app.port;
}, 120_000);

afterAll(() => stopLabEngineApp(app, made), 120_000);

const open = (kind: 'terminal' | 'vnc', name: string, token: string | null) => openLabSocket(base, kind, name, token);

/** A shell in a lab through /ws/labs/terminal: run(cmd) answers what the command printed. */
const shell = (name: string) => labShell(base, name, provider);

const startedLab = (over: Record<string, unknown> = {}) => startLab(t, provider, made, over);

const hostBridge = async () => {
  const bridge = await docker.getNetwork('bridge').inspect();
  return (bridge.IPAM?.Config?.[0]?.Gateway as string | undefined) ?? '172.17.0.1';
};

describe('container lab engine', () => {
  it('is the default, ready here, and says so in /api/health', async () => {
    expect(await t.deps.labs.problem()).toBeNull();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({ labs: { engine: 'container', ready: true } });
  });

  it('a lab works: terminal echo, a writable home, the desktop greets through our socket', async () => {
    const a = await startedLab();
    const sh = await shell(a.vm_name);
    expect(await sh.run('echo hello-$((40+2))-lab')).toContain('hello-42-lab');
    expect(await sh.run('echo kept > ~/note.txt && cat ~/note.txt && id -u')).toMatch(/kept\s+1000/);
    sh.close();
    const desk = await open('vnc', a.vm_name, provider);
    const greeting = await new Promise<string>((resolve) => desk.ws.on('message', (d) => resolve(d.toString())));
    expect(greeting).toMatch(/^RFB 003\.00\d\n/);
    desk.ws.close();
  }, 120_000);

  it("the image's font caches hold: a font lookup in a lab rescans nothing and writes no cache of its own", async () => {
    // fontconfig rescans the fonts (and keeps the result in ~/.cache/fontconfig) when the image's
    // caches do not match their folders: every lab's openbox and xterm paid it at start
    const a = await startedLab();
    const sh = await shell(a.vm_name);
    expect(await sh.run('fc-list | wc -l')).toMatch(/^\s*[1-9]\d*\s*$/m);
    expect(await sh.run('ls -A ~/.cache/fontconfig 2>/dev/null | wc -l')).toMatch(/^\s*0\s*$/m);
    sh.close();
  }, 120_000);

  it('from lab A nothing of the host or of lab B can be reached', async () => {
    const a = await startedLab();
    const b = await startedLab();
    const shB = await shell(b.vm_name);
    await shB.run('echo secret-of-b > ~/b-secret.txt');
    shB.close();

    const sh = await shell(a.vm_name);
    // the data folder (stored files, the embedded database, the key file) does not exist in the lab
    expect(await sh.run(`test -e ${dataDir} && echo "VIS""IBLE" || echo "ABS""ENT"`)).toContain('ABSENT');
    // nothing of B's home, nor any host process, is visible
    expect(await sh.run('grep -rl secret-of-b /home /tmp /var /run /mnt /opt /srv /root 2>/dev/null | wc -l')).toMatch(
      /^\s*0\s*$/m,
    );
    expect(await sh.run('ps -eo comm | grep -cE "node|postgres|redis|dockerd|Xvnc"')).toMatch(/^\s*1\s*$/m);
    // no network but its own loopback: the host's PostgreSQL, Redis, our API, the bridge address
    expect(await sh.run('ip -o addr | grep -v " lo " | wc -l')).toMatch(/^\s*0\s*$/m);
    const bridge = await hostBridge();
    for (const target of [
      '127.0.0.1:5432',
      '127.0.0.1:6379',
      `127.0.0.1:${apiPort}`,
      `${bridge}:5432`,
      `${bridge}:${apiPort}`,
      `${bridge}:2375`,
    ]) {
      const said = await sh.run(connectCommand(target));
      expect(said, target).toContain('CLOSED');
    }
    // no Docker socket, no capabilities, no new privileges, a read-only system
    expect(await sh.run('test -e /var/run/docker.sock && echo "SO""CK" || echo "NO""SOCK"')).toContain('NOSOCK');
    expect(await sh.run('grep -E "^(CapEff|NoNewPrivs)" /proc/self/status')).toMatch(
      /CapEff:\s*0000000000000000[\s\S]*NoNewPrivs:\s*1/,
    );
    expect(await sh.run('touch /usr/local/bin/planted 2>&1; echo rc=$?')).toMatch(/Read-only file system[\s\S]*rc=1/);
    // a setuid copy of a shell gives nothing: no-new-privileges, and it is the lab's own user anyway
    expect(await sh.run('cp /bin/bash ~/suid && chmod u+s ~/suid && ~/suid -p -c "id -u"')).toMatch(/^\s*1000\s*$/m);
    // B's desktop port is B's alone: A can only listen on its own loopback, where its own desktop is
    expect(await sh.run('socat -T1 TCP-LISTEN:5901,bind=127.0.0.1 /dev/null 2>&1 | grep -c "already in use"')).toMatch(
      /^\s*1\s*$/m,
    );
    sh.close();
    const desk = await open('vnc', b.vm_name, provider);
    const greeting = await new Promise<string>((resolve) => desk.ws.on('message', (d) => resolve(d.toString())));
    expect(greeting).toMatch(/^RFB 003\.00\d\n/);
    desk.ws.close();
  }, 180_000);

  it('what a deleted lab planted is gone for the next lab; the container and its volume are removed', async () => {
    const a = await startedLab();
    const sh = await shell(a.vm_name);
    await sh.run(
      'echo planted > /tmp/planted && echo planted > /var/tmp/planted && echo planted > /dev/shm/planted 2>/dev/null; cp /bin/bash /tmp/suid; chmod u+s /tmp/suid; echo planted > ~/planted',
    );
    sh.close();
    const ns = labNamespace(t.deps.config);
    expect((await t.post('vm-delete', { name: a.vm_name }, provider)).status).toBe(200);
    const containers = await docker.listContainers({ all: true, filters: { label: [`${LAB_LABEL}=${a.vm_name}`] } });
    expect(containers).toHaveLength(0);
    const volumes = await docker.listVolumes({ filters: { label: [`${NAMESPACE_LABEL}=${ns}`] } });
    expect((volumes.Volumes ?? []).map((v) => v.Name).filter((n) => n.includes(a.vm_name))).toEqual([]);

    const next = await startedLab();
    const sh2 = await shell(next.vm_name);
    expect(
      await sh2.run('ls /tmp/planted /var/tmp/planted /dev/shm/planted /tmp/suid ~/planted 2>/dev/null | wc -l'),
    ).toMatch(/^\s*0\s*$/m);
    sh2.close();
  }, 180_000);

  it('limits: 2 GB of RAM is the memory limit, a fork loop stops at the pids limit and the server stays healthy', async () => {
    const a = await startedLab({ ram: 2 });
    const sh = await shell(a.vm_name);
    // cgroup v2, or v1 on older hosts
    expect(
      await sh.run('cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes'),
    ).toMatch(/^\s*2147483648\s*$/m);
    const forks = await sh.run(
      `python3 -c 'import os,time
n=0
try:
    while True:
        if os.fork()==0:
            time.sleep(15); os._exit(0)
        n+=1
except OSError:
    print("stopped at", n)'`,
      60_000,
    );
    const stopped = Number(/stopped at (\d+)/.exec(forks)?.[1]);
    expect(stopped).toBeGreaterThan(100);
    expect(stopped).toBeLessThan(t.deps.config.LAB_PIDS_LIMIT);
    sh.close();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  }, 180_000);

  it('stop keeps the home, start finds it; a software the image lacks is refused by name', async () => {
    const a = await startedLab({ softwares: 'git, python3' });
    let sh = await shell(a.vm_name);
    await sh.run('echo survives > ~/kept.txt');
    sh.close();
    expect((await t.post('vm-start-stop', { action: 'stop', name: a.vm_name }, provider)).body.status).toBe(2);
    expect(await t.deps.labs.status(a.vm_name)).toBe('stopped');
    const closed = await open('terminal', a.vm_name, provider);
    expect(await closeCode(closed.ws)).toBe(4409);
    expect((await t.post('vm-start-stop', { action: 'start', name: a.vm_name }, provider)).body.status).toBe(1);
    sh = await shell(a.vm_name);
    expect(await sh.run('cat ~/kept.txt; git --version')).toMatch(/survives[\s\S]*git version/);
    sh.close();

    const windows = await t.post(
      'gc-create-vm',
      { ...baseVm(), image: 'windows', protocol: 'rdp', ram: 4, storage: 50 },
      provider,
    );
    expect(windows).toEqual({ status: 422, body: { other_error: [WINDOWS_NOT_HERE] } });
    const refused = await t.post('gc-create-vm', { ...baseVm(), softwares: 'git, matlab' }, provider);
    expect(refused.status).toBe(422);
    expect(refused.body.other_error[0]).toMatch(/^The Linux lab image does not offer matlab\. It offers: git, /);
  }, 180_000);

  it('a create the database did not finish is undone: its container goes, and so does one no record owns', async () => {
    const v = await makeVm(t, provider);
    made.push(v.vm_name);
    const { eq } = await import('drizzle-orm');
    // the create's last step (writing the reference) was lost: never acknowledged to its caller
    await t.deps.db.update(vms).set({ engine_ref: null }).where(eq(vms.vm_name, v.vm_name));
    // and an engine object from a create whose record is gone
    const engine = t.deps.labs;
    await engine.create({
      vmName: 'tl-orphan0001',
      username: 'tllab_orphan0001',
      password: 'x',
      image: 'ubuntu',
      ram: 2,
      storage: 10,
      zone: 'asia-south1-a',
    });
    made.push('tl-orphan0001');
    expect(await reconcileOrphans(t.deps, 0)).toEqual({ removed: 2, abandoned: 1 });
    expect(await engine.status('tl-orphan0001')).toBe('missing');
    expect(await engine.status(v.vm_name)).toBe('missing');
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    expect(row!.status).toBe(3);
  }, 120_000);
});

const baseVm = () => ({
  image: 'ubuntu',
  protocol: 'ssh',
  zone: 'asia-south1-a',
  count: 1,
  storage: 10,
  ram: 2,
});
