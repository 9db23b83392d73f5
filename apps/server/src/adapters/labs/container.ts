import { randomUUID } from 'node:crypto';
import { Duplex } from 'node:stream';
import { isWindows } from '@trainlab/contract';
import type Docker from 'dockerode';
import type { Config } from '../../platform/config';
import type {
  EngineLab,
  LabCapacity,
  LabEndpoint,
  LabProvider,
  LabSpec,
  LabState,
  LabStream,
} from '../../platform/ports/labs';
import { LabEngineError } from '../../platform/ports/labs';
import { HostCapacity, REQUEST_LABEL } from './container-capacity';
import { LAB_DESKTOP_PORT, LAB_HOME, LAB_USER, labImageProblem, softwareProblem } from './container-image';
import { hangUpCommand, SHELL_MARK, StdoutFrames, shellCommand } from './container-streams';
import { LAB_SECURITY_OPT } from './lab-hardening';
import { LabHomes, type LabIsolation } from './lab-home';
import { labNamespace } from './namespace';
import { engineIsLocal, fenceScript, hostAddresses } from './network-fence';

export const WINDOWS_NOT_HERE =
  'Windows labs run on Google Compute Engine (LAB_PROVIDER=gce); the container engine runs Linux labs.';

/** Every object this engine makes carries this label (its value: the lab's vm_name)… */
export const LAB_LABEL = 'org.trainlab.lab';
/** …and this one: the install it belongs to (several installs may share one engine) */
export const NAMESPACE_LABEL = 'org.trainlab.install';

/** the bridge used when LAB_INTERNET=true: labs reach the internet, not each other */
export const LAB_NETWORK = 'trainlab-labs';
const GB = 1024 ** 3;
const REF = /^[a-z0-9][a-z0-9-]{2,62}$/;

const statusOf = (e: unknown): number | undefined => (e as { statusCode?: number }).statusCode;
const notFound = (e: unknown) => statusOf(e) === 404;

/**
 * The embedded lab engine: each lab is a container of the lab image (container-image.ts) run through
 * a Docker Engine API (Debian's docker.io on this host, or a remote engine through DOCKER_HOST over TLS
 * or SSH; Podman's compatible API works too). Per lab: one container, a home of the lab's storage
 * size (a disk of its own where the host can, lab-home.ts; kept across stop and start, removed with
 * the lab), a memory limit from the lab's RAM, a CPU quota, a pids limit, a read-only root with small
 * private temporary folders, no capabilities, no-new-privileges, our system-call profile
 * (lab-hardening.ts), an unprivileged user (no account of the host where dockerd remaps user
 * namespaces), no other host mount, and no network at all unless LAB_INTERNET=true (then a bridge
 * where labs cannot reach each other). Our server reaches the lab's shell and desktop through the
 * engine's exec API, never through a port: nothing another lab could connect to or take first.
 */
export class ContainerLabs implements LabProvider {
  readonly name = 'container' as const;
  private docker: Docker | undefined;
  private readonly ns: string;
  /** what the host can give labs, and the admission of starts (container-capacity.ts) */
  private readonly host: HostCapacity;
  /** each lab's home: a disk of its storage size where the host can (lab-home.ts) */
  private readonly homes: LabHomes;

  constructor(
    private readonly config: Config,
    docker?: Docker,
  ) {
    this.docker = docker;
    this.ns = labNamespace(config);
    this.host = new HostCapacity(config, () => this.api(), { lab: LAB_LABEL, install: NAMESPACE_LABEL, ns: this.ns });
    this.homes = new LabHomes(config, () => this.api(), {
      ns: this.ns,
      container: (ref) => this.containerName(ref),
      volume: (ref) => this.volumeName(ref),
      labels: (ref) => this.labels(ref),
    });
  }

  /** the disk cap, user namespaces and system-call profile labs run under here (/api/health) */
  async isolation(): Promise<LabIsolation | null> {
    return this.homes.report().catch(() => null);
  }

  capacity(): Promise<LabCapacity | null> {
    return this.host.capacity();
  }

  private containerName(ref: string) {
    return `trainlab-${this.ns}-${ref}`;
  }
  private volumeName(ref: string) {
    return `trainlab-${this.ns}-${ref}-home`;
  }
  private labels(ref: string) {
    return { [LAB_LABEL]: ref, [NAMESPACE_LABEL]: this.ns };
  }

  /** dockerode loads with the first lab call (docker-modem reads DOCKER_HOST and its TLS settings) */
  private async api(): Promise<Docker> {
    if (!this.docker) {
      const { default: DockerClient } = await import('dockerode');
      this.docker = new DockerClient();
    }
    return this.docker;
  }

  async problem(): Promise<string | null> {
    const docker = await this.api();
    try {
      await docker.ping();
    } catch {
      const where = process.env.DOCKER_HOST || 'unix:///var/run/docker.sock';
      return `The container lab engine cannot reach Docker at ${where}. Install Debian's docker.io and start dockerd (or set DOCKER_HOST to a lab host), or choose LAB_PROVIDER=memory or gce.`;
    }
    return (await labImageProblem(docker, this.config.LAB_IMAGE)) ?? this.homes.problem();
  }

  private check(ref: string) {
    if (!REF.test(ref)) throw new LabEngineError('Invalid lab name.');
  }

  private async ensureNetwork(docker: Docker): Promise<string> {
    if (!this.config.LAB_INTERNET) return 'none';
    const found = await docker.listNetworks({ filters: { name: [LAB_NETWORK] } });
    if (!found.some((n) => n.Name === LAB_NETWORK)) {
      await docker.createNetwork({
        Name: LAB_NETWORK,
        Driver: 'bridge',
        Labels: { [LAB_LABEL]: 'network' },
        // labs on this bridge reach the internet, never each other
        Options: { 'com.docker.network.bridge.enable_icc': 'false' },
      });
    }
    return LAB_NETWORK;
  }

  /** The container and its home volume; the lab's size becomes its limits. */
  private async make(ref: string, spec: LabSpec): Promise<void> {
    const docker = await this.api();
    if (isWindows(spec.image)) throw new LabEngineError(WINDOWS_NOT_HERE);
    const refused = softwareProblem(spec.softwares ?? '');
    if (refused) throw new LabEngineError(refused);
    await this.host.checkLimit(spec.ram);
    const home = await this.homes.prepare(ref, spec.storage);
    const network = await this.ensureNetwork(docker);
    const memory = Math.max(1, spec.ram) * GB;
    const body: Docker.ContainerCreateOptions = {
      name: this.containerName(ref),
      Image: this.config.LAB_IMAGE,
      Hostname: ref.slice(0, 63),
      User: LAB_USER,
      WorkingDir: LAB_HOME,
      Labels: { ...this.labels(ref), [REQUEST_LABEL]: String(this.host.requestOf(spec.ram)) },
      Env: [`HOME=${LAB_HOME}`, `USER=${spec.username}`, 'LANG=C.UTF-8'],
      HostConfig: {
        NetworkMode: network,
        Mounts: [home.mount],
        Memory: memory,
        MemorySwap: memory,
        NanoCpus: Math.round(this.config.LAB_CPUS * 1e9),
        PidsLimit: this.config.LAB_PIDS_LIMIT,
        // when the host runs out of memory all the same, the kernel kills lab processes first
        OomScoreAdj: 1000,
        CapDrop: ['ALL'],
        // no new privileges, and the lab's system-call profile (lab-hardening.ts: no io_uring, no namespaces)
        SecurityOpt: LAB_SECURITY_OPT,
        ReadonlyRootfs: true,
        Tmpfs: {
          '/tmp': 'rw,nosuid,nodev,size=256m,mode=1777',
          '/var/tmp': 'rw,nosuid,nodev,size=64m,mode=1777',
          '/run': 'rw,nosuid,nodev,size=16m,mode=755',
        },
        Init: true,
        Privileged: false,
        RestartPolicy: { Name: 'no' },
        LogConfig: { Type: 'none', Config: {} },
      },
    };
    try {
      await docker.createContainer(body);
    } catch (e) {
      if (statusOf(e) === 409) return; // made by an earlier, interrupted call: adopted
      await this.homes.remove(ref).catch(() => undefined);
      throw new LabEngineError(`The lab engine refused the lab: ${(e as Error).message}`);
    }
  }

  async create(spec: LabSpec): Promise<{ ref: string }> {
    this.check(spec.vmName);
    const problem = await this.problem();
    if (problem) throw new LabEngineError(problem);
    await this.make(spec.vmName, spec);
    return { ref: spec.vmName };
  }

  async start(ref: string, spec: LabSpec): Promise<void> {
    this.check(ref);
    const docker = await this.api();
    const container = docker.getContainer(this.containerName(ref));
    let info: Docker.ContainerInspectInfo;
    try {
      info = await container.inspect();
    } catch (e) {
      if (!notFound(e)) throw e;
      // a lab recorded before its container existed (the demo data, a lost engine): made now
      await this.make(ref, spec);
      info = await container.inspect();
    }
    if (!info.State.Running) {
      // its disk mounted first: a container started on the bare folder would have no home
      await this.homes.beforeStart(ref, spec.storage, info);
      // admitted only while its memory request fits beside the running labs' (container-capacity.ts)
      await this.host.admit(ref, spec.ram, async () => {
        try {
          await container.start();
        } catch (e) {
          if (statusOf(e) !== 304) throw new LabEngineError(`The lab did not start: ${(e as Error).message}`);
        }
      });
    }
    await this.fence(ref);
    if (!(await this.waitForDesktop(ref, 20_000))) throw new LabEngineError('The lab desktop did not start.');
  }

  /**
   * On the internet bridge, a lab may reach the internet but not the lab host, its networks or a
   * cloud's metadata service (network-fence.ts): `prohibit` routes written into the lab's network
   * namespace at every start (a stopped container's namespace is gone), before the lab is handed
   * over. The lab never holds NET_ADMIN: a one-shot helper of the same image joins its namespace with
   * that one capability, writes the routes and is removed. A lab that cannot be fenced is stopped.
   */
  private async fence(ref: string): Promise<void> {
    if (!this.config.LAB_INTERNET) return;
    const docker = await this.api();
    const lab = docker.getContainer(this.containerName(ref));
    const info = await lab.inspect();
    const gateway = info.NetworkSettings.Networks?.[LAB_NETWORK]?.Gateway || undefined;
    const script = fenceScript(gateway, engineIsLocal() ? hostAddresses() : []);
    const name = `${this.containerName(ref)}-fence`;
    await docker
      .getContainer(name)
      .remove({ force: true })
      .catch(() => undefined);
    let code = -1;
    try {
      const helper = await docker.createContainer({
        name,
        Image: this.config.LAB_IMAGE,
        Entrypoint: ['sh', '-c', script],
        User: 'root',
        HostConfig: {
          NetworkMode: `container:${info.Id}`,
          CapDrop: ['ALL'],
          CapAdd: ['NET_ADMIN'],
          // no new privileges, and the lab's system-call profile (lab-hardening.ts: no io_uring, no namespaces)
          SecurityOpt: LAB_SECURITY_OPT,
          ReadonlyRootfs: true,
          RestartPolicy: { Name: 'no' },
          LogConfig: { Type: 'none', Config: {} },
        },
      });
      await helper.start();
      code = ((await helper.wait()) as { StatusCode?: number }).StatusCode ?? -1;
    } catch {
      // the helper could not run: the lab is not fenced (code stays -1)
    } finally {
      await docker
        .getContainer(name)
        .remove({ force: true })
        .catch(() => undefined);
    }
    if (code !== 0) {
      await lab.stop({ t: 0 }).catch(() => undefined);
      throw new LabEngineError('The lab network could not be fenced from the lab host.');
    }
  }

  /**
   * The desktop answers inside the lab (its VNC port on the lab's own loopback). Waited for in the
   * lab, not from here, by one process: socat tries to connect ten times a second (its own retry,
   * no new process per try) and exits 0 once the desktop accepts. An exec every 150 ms cost the
   * engine (runc) tens of milliseconds of the host's CPU each; a shell loop starting the checker and
   * a `sleep` ten times a second cost 1.1 s of CPU per 5 s of waiting (measured in a lab container at
   * load; socat's own retry: 74 ms), a fifth of a core per lab while its desktop boots, spent beside
   * the booting desktops of a class's bell.
   */
  private async waitForDesktop(ref: string, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
      const waited = await this.run(ref, [
        'timeout',
        String(seconds),
        'socat',
        '-u',
        'OPEN:/dev/null',
        `TCP:127.0.0.1:${LAB_DESKTOP_PORT},retry=${seconds * 10},interval=0.1`,
      ]);
      if (waited === 0) return true;
      // 124: the desktop did not answer in time; -1 or another code: the exec could not run yet (or
      // socat's tries ran out first): tried again while time is left
      if (waited === 124) return false;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  }

  /** Runs a command in the lab as its user and returns its exit code (-1 when it could not run). */
  private async run(ref: string, cmd: string[]): Promise<number> {
    const docker = await this.api();
    try {
      const exec = await docker.getContainer(this.containerName(ref)).exec({
        Cmd: cmd,
        User: LAB_USER,
        AttachStdout: true,
        AttachStderr: true,
      });
      const stream = await exec.start({});
      stream.resume();
      await new Promise<void>((resolve) => {
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', resolve);
      });
      return (await exec.inspect()).ExitCode ?? -1;
    } catch {
      return -1;
    }
  }

  async stop(ref: string): Promise<void> {
    this.check(ref);
    const docker = await this.api();
    try {
      await docker.getContainer(this.containerName(ref)).stop({ t: 3 });
    } catch (e) {
      // 304: already stopped; 404: gone (stopping what is gone is done)
      if (statusOf(e) !== 304 && !notFound(e)) throw new LabEngineError('The lab did not stop.');
    }
    await this.homes.afterStop(ref).catch(() => {
      throw new LabEngineError("The lab stopped, but its home's disk could not be unmounted.");
    });
  }

  async delete(ref: string): Promise<void> {
    this.check(ref);
    const docker = await this.api();
    try {
      await docker.getContainer(this.containerName(ref)).remove({ force: true, v: true });
    } catch (e) {
      if (!notFound(e)) throw new LabEngineError('The lab could not be deleted.');
    }
    try {
      await this.homes.remove(ref);
    } catch {
      throw new LabEngineError("The lab's home could not be deleted.");
    }
  }

  async status(ref: string): Promise<LabState> {
    this.check(ref);
    const docker = await this.api();
    try {
      const info = await docker.getContainer(this.containerName(ref)).inspect();
      return info.State.Running ? 'running' : 'stopped';
    } catch (e) {
      if (notFound(e)) return 'missing';
      throw e;
    }
  }

  /** No address: the shell and desktop come through the engine (openShell, openDesktop) while it runs. */
  async connection(ref: string): Promise<LabEndpoint> {
    const running = (await this.status(ref)) === 'running';
    return { viaEngine: { shell: running, desktop: running } };
  }

  /** The person's own tmux session in the lab (container-streams.ts): a reload attaches to it again. */
  async openShell(ref: string, size: { cols: number; rows: number }, session?: string): Promise<LabStream | null> {
    this.check(ref);
    const docker = await this.api();
    const mark = randomUUID();
    const exec = await docker.getContainer(this.containerName(ref)).exec({
      Cmd: shellCommand(session),
      User: LAB_USER,
      WorkingDir: LAB_HOME,
      Env: ['TERM=xterm-256color', `HOME=${LAB_HOME}`, `${SHELL_MARK}=${mark}`],
      Tty: true,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: true, Tty: true });
    const resize = async (cols: number, rows: number) => {
      await exec.resize({ w: Math.min(500, cols), h: Math.min(500, rows) }).catch(() => undefined);
    };
    await resize(size.cols, size.rows);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      stream.destroy();
      // the engine leaves the exec's process running when its stream closes: it is hung up here
      void this.run(ref, hangUpCommand(mark));
    };
    return { stream, resize, close };
  }

  async openDesktop(ref: string): Promise<LabStream | null> {
    this.check(ref);
    const docker = await this.api();
    const exec = await docker.getContainer(this.containerName(ref)).exec({
      // socat joins our stream to the VNC server on the lab's own loopback
      Cmd: ['socat', 'STDIO', `TCP:127.0.0.1:${LAB_DESKTOP_PORT},nodelay`],
      User: LAB_USER,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
    });
    const raw = await exec.start({ hijack: true, stdin: true });
    // without a TTY the engine frames stdout and stderr: the RFB bytes are stdout's, read no faster
    // than the browser takes them (a paused reader pauses the engine's socket)
    const out = raw.pipe(new StdoutFrames());
    raw.on('close', () => {
      if (!out.writableEnded) out.end();
    });
    const stream = new DesktopStream(raw, out);
    return { stream, close: () => raw.destroy() };
  }

  async listLabs(): Promise<EngineLab[] | null> {
    const docker = await this.api();
    const list = await docker.listContainers({
      all: true,
      filters: { label: [LAB_LABEL, `${NAMESPACE_LABEL}=${this.ns}`] },
    });
    return list
      .map((c) => c.Labels[LAB_LABEL])
      .filter((v): v is string => !!v)
      .map((ref) => ({ ref, vmName: ref }));
  }
}

/** Writes go to the exec's stdin, reads come from its demultiplexed stdout. */
class DesktopStream extends Duplex {
  constructor(
    private readonly raw: Duplex,
    private readonly out: StdoutFrames,
  ) {
    super();
    out.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) out.pause();
    });
    out.on('end', () => this.push(null));
    raw.on('error', (e) => this.destroy(e));
  }
  override _read() {
    this.out.resume();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void) {
    this.raw.write(chunk, done);
  }
  override _destroy(err: Error | null, done: (e: Error | null) => void) {
    this.raw.destroy();
    done(err);
  }
}
