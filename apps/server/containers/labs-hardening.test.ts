import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerLabs } from '../src/adapters/labs/container';
import { LabDisks, localScript } from '../src/adapters/labs/lab-disk';
import { DISK_HELPER_LABEL } from '../src/adapters/labs/lab-home';
import { labNamespace } from '../src/adapters/labs/namespace';
import { loadConfig } from '../src/platform/config';
import type { TestApp } from '../test/helpers';
import { type LabEngineApp, startLab, startLabEngineApp, stopLabEngineApp } from './lab-engine-app';
import { labShell } from './lab-shell';

/**
 * What a learner with one lab tries against the host (issue 39), on the real engine: filling the
 * host's disk from the lab's home, the kernel's io_uring and new namespaces, and being an account of
 * the host. A host that cannot cap lab homes refuses labs unless told to run them uncapped.
 */

const docker = new Docker();
const GB = 1024 ** 3;
let t: TestApp;
let base: string;
let dataDir: string;
let provider: string;
let app: LabEngineApp | undefined;
const made: string[] = [];

beforeAll(async () => {
  app = await startLabEngineApp('tl-labs-hardening-');
  ({ t, base, dataDir, provider } = app);
}, 120_000);

afterAll(() => stopLabEngineApp(app, made), 120_000);

const containerName = (name: string) => `trainlab-${labNamespace(t.deps.config)}-${name}`;
const disks = (dir = path.join(dataDir, 'lab-disks')) => new LabDisks(dir, localScript);
const hostFree = () => {
  const s = statfsSync(dataDir);
  return s.bavail * s.bsize;
};

const startedLab = (over: Record<string, unknown> = {}) => startLab(t, provider, made, over);

/** what a command prints (stdout and stderr) run in a container as the lab's user, and its exit code */
async function exec(name: string, cmd: string): Promise<{ out: string; code: number }> {
  const run = await docker
    .getContainer(name)
    .exec({ Cmd: ['sh', '-c', cmd], User: '1000:1000', AttachStdout: true, AttachStderr: true });
  const stream = await run.start({});
  let out = '';
  const sink = new PassThrough();
  sink.on('data', (d: Buffer) => {
    out += d.toString();
  });
  docker.modem.demuxStream(stream, sink, sink);
  await new Promise((resolve) => stream.on('end', resolve));
  return { out, code: (await run.inspect()).ExitCode ?? -1 };
}

/** io_uring_setup(2) (425 on x86_64 and arm64) through Python: "ok" or the errno's name */
const IO_URING = `python3 -c 'import ctypes,errno
libc=ctypes.CDLL(None,use_errno=True)
r=libc.syscall(425,4,ctypes.create_string_buffer(120))
print("io_uring", "ok" if r>=0 else errno.errorcode[ctypes.get_errno()])'`;

describe('a lab against its host', () => {
  it('/api/health says how labs are held here: capped homes, user namespaces, our system-call profile', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json().labs).toMatchObject({
      engine: 'container',
      ready: true,
      isolation: { disk: 'capped', userns: true, seccomp: 'trainlab' },
    });
  });

  it('12 GB written in a lab of storage 10 fails with "No space left on device"; the host keeps its space', async () => {
    const a = await startedLab({ storage: 10 });
    const free = hostFree();
    const sh = await labShell(base, a.vm_name, provider);
    // the home is a filesystem of the lab's size, whatever the host's disk is
    expect(await sh.run('df -B1G --output=size ~ | tail -1')).toMatch(/^\s*(9|10)\s*$/m);
    expect(await sh.run('fallocate -l 12G ~/big.bin; echo rc=$?')).toMatch(/No space left on device[\s\S]*rc=1/);
    // what a careless or hostile writer does next: take what there is (ext4 keeps what a failed
    // fallocate got), then write more
    expect(
      await sh.run('rm -f ~/big.bin && fallocate -l 9G ~/big.bin && echo more > ~/one-more.txt; echo rc=$?', 60_000),
    ).toMatch(/rc=0/);
    expect(await sh.run('head -c 2000000000 /dev/zero > ~/more.bin; echo rc=$?', 120_000)).toMatch(
      /No space left on device[\s\S]*rc=1/,
    );
    sh.close();
    // the disk's file holds no more of the host's disk than the lab's size, and the host lost no more
    const name = containerName(a.vm_name);
    expect(await disks().used(name)).toBeLessThanOrEqual(10 * GB);
    expect(free - hostFree()).toBeLessThan(10.5 * GB);
  }, 300_000);

  it('real bytes past a 1 GB home, the disk made through the engine (a server that is not root): the write stops at the cap', async () => {
    // the create form's smallest storage is 10 GB: the engine itself is asked for a 1 GB home, so
    // that the bytes actually written stay small on a shared machine. LAB_DISK_VIA=engine: the
    // one-shot helper on the engine's host makes and mounts the disk, as for a server without root
    // or a lab host of its own
    const dir = path.join(dataDir, 'engine-disks');
    const engine = new ContainerLabs({ ...t.deps.config, LAB_DISK_VIA: 'engine', LAB_DISK_DIR: dir }, docker);
    expect(await engine.isolation()).toMatchObject({ disk: 'capped', diskVia: 'engine' });
    const spec = {
      vmName: 'tl-diskcap0001',
      username: 'tllab_diskcap',
      password: 'x',
      image: 'ubuntu',
      ram: 2,
      storage: 1,
      zone: 'asia-south1-a',
    };
    try {
      await engine.create(spec);
      await engine.start(spec.vmName, spec);
      const name = containerName(spec.vmName);
      const free = hostFree();
      const wrote = await exec(name, 'dd if=/dev/zero of=$HOME/fill bs=1M count=1230 2>&1; echo rc=$?');
      expect(wrote.out).toMatch(/No space left on device[\s\S]*rc=1/);
      const d = disks(dir);
      const used = await d.used(name);
      expect(used).toBeGreaterThan(0.9 * GB);
      expect(used).toBeLessThanOrEqual(1 * GB);
      expect(free - hostFree()).toBeLessThan(1.3 * GB);

      // stop unmounts (the loop device is freed), start mounts it again with what was written
      expect(await d.mounted(name)).toBe(true);
      await engine.stop(spec.vmName);
      expect(await d.mounted(name)).toBe(false);
      // a lab started on the bare folder would find a home it cannot write (root's, mode 000)
      expect(
        execFileSync('stat', ['-c', '%u %a', d.mountPoint(name)])
          .toString()
          .trim(),
      ).toBe('0 0');
      await engine.start(spec.vmName, spec);
      expect(await d.mounted(name)).toBe(true);
      expect((await exec(name, 'ls -la ~; stat -c %s ~/fill')).out).toMatch(/\.bashrc[\s\S]*\b1\d{9}\b/);

      // deleted: unmounted, the file and its folder gone, no helper left behind
      await engine.delete(spec.vmName);
      expect(await d.mounted(name)).toBe(false);
      expect(existsSync(d.image(name))).toBe(false);
      expect(existsSync(d.mountPoint(name))).toBe(false);
      const helpers = await docker.listContainers({ all: true, filters: { label: [DISK_HELPER_LABEL] } });
      expect(helpers).toHaveLength(0);
    } finally {
      await engine.delete(spec.vmName).catch(() => undefined);
    }
  }, 300_000);

  it('io_uring_setup fails with EPERM and new namespaces are refused (Docker’s default profile allowed io_uring)', async () => {
    const a = await startedLab();
    const name = containerName(a.vm_name);
    expect((await exec(name, IO_URING)).out).toMatch(/io_uring EPERM/);
    expect((await exec(name, 'unshare -Ur true 2>&1; echo rc=$?')).out).toMatch(/Operation not permitted[\s\S]*rc=1/);
    expect((await exec(name, 'unshare -n true 2>&1; echo rc=$?')).out).toMatch(/rc=1/);
    // the lab's everyday work still runs: threads, forks, a pipe, Python
    expect(
      (
        await exec(
          name,
          "python3 -c \"import threading,subprocess;t=threading.Thread(target=print);t.start();t.join();print(subprocess.run(['echo','ran'],capture_output=True).stdout.decode())\"",
        )
      ).out,
    ).toMatch(/ran/);
    // what landed before: the same image under the engine's default profile lets io_uring through
    const before = execFileSync(
      'docker',
      ['run', '--rm', '--network', 'none', '--user', '1000:1000', t.deps.config.LAB_IMAGE, 'sh', '-c', IO_URING],
      { encoding: 'utf8' },
    );
    expect(before).toMatch(/io_uring ok/);
  }, 180_000);

  it("the lab's uid 1000 is no account of the host (dockerd's user-namespace remapping)", async () => {
    const a = await startedLab();
    const info = await docker.getContainer(containerName(a.vm_name)).inspect();
    const pid = info.State.Pid;
    expect(pid).toBeGreaterThan(0);
    // the lab's first process, seen from the host: its uids are the remapped range's, not 1000
    const uidLine = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    const hostUid = Number(uidLine);
    expect(hostUid).toBeGreaterThanOrEqual(100_000);
    const map = readFileSync(`/proc/${pid}/uid_map`, 'utf8').trim().split(/\s+/).map(Number);
    expect(map[0]).toBe(0);
    expect(map[1]).toBeGreaterThan(0);
    expect(hostUid).toBe(map[1]! + 1000);
    const accounts = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => Number(l.split(':')[2]));
    expect(accounts).not.toContain(hostUid);
    // and the lab's home on the host belongs to that same unnamed account
    expect(
      execFileSync('stat', ['-c', '%u', disks().mountPoint(containerName(a.vm_name))])
        .toString()
        .trim(),
    ).toBe(String(hostUid));
  }, 120_000);

  it('a remote engine gets its disks through the helper; a host that cannot cap refuses labs unless LAB_DISK_UNCAPPED says so; production refuses that setting', async () => {
    const remote = process.env.DOCKER_HOST;
    // a remote engine (this one, named otherwise): this server cannot mount a folder of that host,
    // the helper on the engine's host can
    process.env.DOCKER_HOST = 'tcp://lab-host.invalid:2376';
    try {
      const viaEngine = new ContainerLabs(t.deps.config, docker);
      expect(await viaEngine.problem()).toBeNull();
      expect(await viaEngine.isolation()).toMatchObject({ disk: 'capped', diskVia: 'engine' });
      // told to mount disks itself, which it cannot for a remote engine: refused, said why
      const hostOnly = { ...t.deps.config, LAB_DISK_VIA: 'host' as const };
      const refusing = new ContainerLabs(hostOnly, docker);
      expect(await refusing.problem()).toMatch(
        /^Lab homes cannot be capped on this host \(the lab engine runs on another host \(DOCKER_HOST\)\)/,
      );
      expect(await refusing.isolation()).toMatchObject({ disk: 'uncapped' });
      await expect(
        refusing.create({
          vmName: 'tl-uncapped01',
          username: 'x',
          password: 'x',
          image: 'ubuntu',
          ram: 2,
          storage: 10,
          zone: 'asia-south1-a',
        }),
      ).rejects.toThrow(/^Lab homes cannot be capped/);
      const uncapped = new ContainerLabs({ ...hostOnly, LAB_DISK_UNCAPPED: true }, docker);
      expect(await uncapped.problem()).toBeNull();
    } finally {
      if (remote === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = remote;
    }
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'razorpay', LAB_DISK_UNCAPPED: 'true' }),
    ).toThrow(/LAB_DISK_UNCAPPED: one lab could fill the host's disk/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'razorpay' }).LAB_DISK_UNCAPPED).toBe(false);
    expect(loadConfig({ LAB_DISK_UNCAPPED: 'true' }).LAB_DISK_UNCAPPED).toBe(true);
  });

  it('an engine without user-namespace remapping: production refuses labs, development runs them, health says which', async () => {
    // a Docker API that answers as a dockerd without userns-remap does (a local fake of its HTTP API)
    const socket = path.join(dataDir, 'fake-docker.sock');
    const fake = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/_ping')) return res.end('OK');
      if (req.url?.includes('/images/')) return res.end(JSON.stringify({ Id: 'sha256:0' }));
      if (req.url?.endsWith('/info')) {
        return res.end(
          JSON.stringify({ SecurityOptions: ['name=seccomp,profile=default'], DockerRootDir: '/var/lib/docker' }),
        );
      }
      res.statusCode = 404;
      res.end('{}');
    });
    await new Promise<void>((resolve) => fake.listen(socket, resolve));
    try {
      const engine = new Docker({ socketPath: socket });
      const production = new ContainerLabs({ ...t.deps.config, NODE_ENV: 'production' }, engine);
      expect(await production.problem()).toMatch(/^The lab engine runs labs as accounts of this host/);
      const development = new ContainerLabs(t.deps.config, engine);
      expect(await development.problem()).toBeNull();
      expect(await development.isolation()).toMatchObject({ userns: false, seccomp: 'trainlab' });
    } finally {
      fake.close();
    }
  });
});
