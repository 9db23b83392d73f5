import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { Config } from '../../platform/config';
import { LabEngineError } from '../../platform/ports/labs';
import { LAB_HOME } from './container-image';
import { type HostScript, LabDisks, localScript } from './lab-disk';
import { diskUncapped, type EngineIsolation, engineIsolation, NO_USERNS } from './lab-hardening';
import { engineIsLocal } from './network-fence';

/** the lab's account inside its container (LAB_USER) */
const LAB_UID = 1000;
/** where the engine's host keeps lab disks when this server reaches them through the engine */
export const ENGINE_DISK_DIR = '/var/lib/trainlab-lab-disks';
/** the one-shot disk helpers carry this label (never LAB_LABEL: they are no lab) */
export const DISK_HELPER_LABEL = 'org.trainlab.disk-helper';
const PROBE_RETRY_MS = 30_000;

/** What /api/health says of how labs are held on this engine. */
export type LabIsolation = {
  /** capped: each lab's home is a filesystem of its storage size; uncapped: LAB_DISK_UNCAPPED on a host that cannot */
  disk: 'capped' | 'uncapped';
  /** host: this server mounts the disks itself; engine: a helper on the engine's host does */
  diskVia?: 'host' | 'engine';
  /** lab processes run as accounts of their own on the host (userns-remap or a rootless engine) */
  userns: boolean;
  /** the system-call profile every lab runs under (lab-seccomp.json) */
  seccomp: 'trainlab';
};

type DiskMode = { disks: LabDisks; via: 'host' | 'engine' } | { disks: null; why: string };

/**
 * A container lab's home, and the engine facts its safety rests on. Where the engine's host can
 * (loop devices, e2fsprogs), the home is a disk of the lab's storage (lab-disk.ts) bound into the
 * lab. This server mounts it itself when it is root beside its engine ("host"); otherwise, or with
 * LAB_DISK_VIA=engine, through the engine: a one-shot helper container of the lab image in the
 * host's user and PID namespaces, with SYS_ADMIN, SYS_PTRACE and the loop devices, enters the engine's
 * mount namespace and runs the same script (whoever holds the engine's API is root on its host already; the helper runs our fixed
 * script, never the lab's code). Where neither works labs are refused unless LAB_DISK_UNCAPPED=true,
 * and then the home is an engine volume (no cap). The engine's user-namespace remapping is read from
 * the engine (`docker info`): the disk's files belong to the host account the lab's uid 1000 is.
 */
export class LabHomes {
  private isolationOnce: Promise<EngineIsolation> | undefined;
  private modeOnce: { at: number; mode: Promise<DiskMode>; failed: boolean } | undefined;

  constructor(
    private readonly config: Config,
    private readonly api: () => Promise<Docker>,
    private readonly names: {
      ns: string;
      container(ref: string): string;
      volume(ref: string): string;
      labels(ref: string): Record<string, string>;
    },
  ) {}

  /** the engine's answer, asked once (asked again after a failure) */
  isolation(): Promise<EngineIsolation> {
    this.isolationOnce ??= this.api()
      .then(engineIsolation)
      .catch((e) => {
        this.isolationOnce = undefined;
        throw e;
      });
    return this.isolationOnce;
  }

  /** How lab disks are made here, found once (a failed probe is tried again after 30 s). */
  diskMode(): Promise<DiskMode> {
    const now = Date.now();
    if (!this.modeOnce || (now - this.modeOnce.at > PROBE_RETRY_MS && this.modeOnce.failed)) {
      const mode = this.findDiskMode();
      const entry = { at: now, mode, failed: false };
      void mode.then((m) => {
        entry.failed = !m.disks;
      });
      this.modeOnce = entry;
    }
    return this.modeOnce.mode;
  }

  private async findDiskMode(): Promise<DiskMode> {
    const via = this.config.LAB_DISK_VIA;
    const local = LabDisks.localProblem(engineIsLocal());
    if (via !== 'engine' && !local) {
      const dir = this.config.LAB_DISK_DIR ?? path.resolve(this.config.DATA_DIR, 'lab-disks');
      return { disks: new LabDisks(dir, localScript), via: 'host' };
    }
    if (via === 'host') return { disks: null, why: local ?? 'unknown' };
    const run: HostScript = (script) => this.onEngineHost(script);
    const said = (
      await run(LabDisks.PROBE).catch((e: Error) => `the engine did not run the disk helper: ${e.message}`)
    ).trim();
    if (said !== 'ok') return { disks: null, why: said };
    return {
      disks: new LabDisks(this.config.LAB_DISK_DIR ?? `${ENGINE_DISK_DIR}/${this.names.ns}`, run),
      via: 'engine',
    };
  }

  /** Runs a script as root in the engine host's mount namespace through a one-shot helper. */
  private async onEngineHost(script: string): Promise<string> {
    const docker = await this.api();
    const helper = await docker.createContainer({
      name: `trainlab-${this.names.ns}-disk-${randomBytes(4).toString('hex')}`,
      Image: this.config.LAB_IMAGE,
      User: 'root',
      // the engine's own mount namespace (where it finds a bind mount's source), else the host's init's
      Entrypoint: [
        '/bin/sh',
        '-c',
        'pid=$(pgrep -o -x dockerd) || pid=1; exec nsenter -t "$pid" -m -- /bin/sh -c "$0"',
        script,
      ],
      Cmd: [],
      Labels: { [DISK_HELPER_LABEL]: this.names.ns },
      AttachStdout: true,
      AttachStderr: true,
      HostConfig: {
        // what mounting a loop device in the host's mount namespace takes, and no more: mount and
        // setns (SYS_ADMIN), entering another process's namespace (SYS_PTRACE), the loop devices
        UsernsMode: 'host',
        PidMode: 'host',
        CapAdd: ['SYS_ADMIN', 'SYS_PTRACE'],
        DeviceCgroupRules: ['b 7:* rwm', 'c 10:237 rwm'],
        NetworkMode: 'none',
        RestartPolicy: { Name: 'no' },
        LogConfig: { Type: 'none', Config: {} },
      },
    });
    try {
      const stream = await helper.attach({ stream: true, stdout: true, stderr: true });
      let text = '';
      const out = new PassThrough();
      out.on('data', (d: Buffer) => {
        text += d.toString();
      });
      const ended = new Promise<void>((resolve) => {
        stream.on('end', resolve);
        stream.on('close', resolve);
      });
      docker.modem.demuxStream(stream, out, out);
      await helper.start();
      const { StatusCode } = (await helper.wait()) as { StatusCode: number };
      await Promise.race([ended, new Promise((r) => setTimeout(r, 2000))]);
      if (StatusCode !== 0) throw new Error(text.trim().split('\n').pop() || `exit ${StatusCode}`);
      return text;
    } finally {
      await helper.remove({ force: true }).catch(() => undefined);
    }
  }

  private async owner() {
    const iso = await this.isolation();
    return { uid: iso.uidBase + LAB_UID, gid: iso.gidBase + LAB_UID };
  }

  /** the disks, or null when labs run uncapped here */
  async disks(): Promise<LabDisks | null> {
    return (await this.diskMode()).disks;
  }

  /** null when labs may run here as configured, else what to do (the engine answers already). */
  async problem(): Promise<string | null> {
    const mode = await this.diskMode();
    if (!mode.disks && !this.config.LAB_DISK_UNCAPPED) return diskUncapped(mode.why);
    if (this.config.NODE_ENV === 'production' && !(await this.isolation()).userns) return NO_USERNS;
    return null;
  }

  async report(): Promise<LabIsolation> {
    const mode = await this.diskMode();
    return {
      disk: mode.disks ? 'capped' : 'uncapped',
      ...(mode.disks ? { diskVia: mode.via } : {}),
      userns: (await this.isolation()).userns,
      seccomp: 'trainlab',
    };
  }

  /** The home's mount for a new container: its disk (made and mounted now) or, uncapped, a volume. */
  async prepare(ref: string, storageGb: number): Promise<{ mount: Docker.MountSettings }> {
    const disks = await this.disks();
    if (!disks) {
      const docker = await this.api();
      await docker.createVolume({ Name: this.names.volume(ref), Labels: this.names.labels(ref) });
      return { mount: { Type: 'volume', Source: this.names.volume(ref), Target: LAB_HOME } };
    }
    const name = this.names.container(ref);
    await disks.ensure(name, storageGb, await this.owner());
    return { mount: { Type: 'bind', Source: disks.mountPoint(name), Target: LAB_HOME } };
  }

  /**
   * Before a start: the lab's disk is mounted (again after a stop or a host restart). A container
   * made before lab disks were capped has an uncapped home: refused, said plainly.
   */
  async beforeStart(ref: string, storageGb: number, info: Docker.ContainerInspectInfo): Promise<void> {
    const disks = await this.disks();
    if (!disks) return;
    const name = this.names.container(ref);
    const home = info.Mounts.find((m) => m.Destination === LAB_HOME);
    if (home?.Type !== 'bind' || home.Source !== disks.mountPoint(name)) {
      throw new LabEngineError(
        "This lab was made before lab homes had a size limit: delete it and create it again (its home's files go with it).",
      );
    }
    try {
      await disks.ensure(name, storageGb, await this.owner());
    } catch (e) {
      throw new LabEngineError(`The lab's home could not be mounted: ${(e as Error).message}`);
    }
  }

  /** After a stop: the disk is unmounted (its loop device freed); its file stays for the next start. */
  async afterStop(ref: string): Promise<void> {
    const disks = await this.disks();
    if (disks) await disks.release(this.names.container(ref));
  }

  /** With the lab: its volume or its disk. */
  async remove(ref: string): Promise<void> {
    const docker = await this.api();
    try {
      await docker.getVolume(this.names.volume(ref)).remove({ force: true });
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode !== 404) throw e;
    }
    const disks = await this.disks();
    if (disks) await disks.remove(this.names.container(ref));
  }
}
