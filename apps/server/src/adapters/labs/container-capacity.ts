import type Docker from 'dockerode';
import type { Config } from '../../platform/config';
import type { LabCapacity } from '../../platform/ports/labs';
import { LabEngineError } from '../../platform/ports/labs';
import { KEYS_ADVICE, type KeyQuota, labsByKeys, readKeyQuota } from './kernel-keys';
import { engineIsLocal } from './network-fence';

/**
 * The host's capacity, as Kubernetes separates requests from limits (decision 0057): a lab's RAM is
 * its limit (the container's memory limit: what it may use); its request is what it is expected to
 * use (LAB_MEMORY_REQUEST_MB, never more than its limit). The engine itself says how much memory and
 * how many CPUs the host has (`docker info`: MemTotal, NCPU); a start is admitted while the requests
 * of this install's running labs and of the start itself fit in that memory less LAB_MEMORY_RESERVE_MB
 * (the server, its database, the engine). A lab whose limit exceeds the host's memory is refused
 * outright, at create and at start. A refusal is said at once (no queue): the person who pressed
 * Start learns it now, and the schedule's starts are retried by their own jobs.
 *
 * On a local engine the kernel's key quota bounds the count of running labs too (kernel-keys.ts):
 * past it a lab would run without a terminal or a desktop, so the start is refused instead, with the
 * setting that raises it.
 */

const GB = 1024 ** 3;
const MB = 1024 ** 2;
/** each container carries its request (bytes) as it was when made */
export const REQUEST_LABEL = 'org.trainlab.memory-request';
/** the host's size is asked again after this long (a host does not change its memory often) */
const HOST_TTL_MS = 60_000;

const gb = (bytes: number) => (Math.round((bytes / GB) * 10) / 10).toString();

export class HostCapacity {
  private host: { memory: number; cpus: number; keys: KeyQuota | null; until: number } | null = null;
  /** admission decisions one at a time: two starts never both see the room only one of them fits */
  private queue: Promise<unknown> = Promise.resolve();
  /** labs admitted and not yet running (ref → request in bytes) */
  private readonly starting = new Map<string, number>();

  constructor(
    private readonly config: Config,
    private readonly api: () => Promise<Docker>,
    private readonly labels: { lab: string; install: string; ns: string },
    /** the kernel's key quota of the host the labs run on (null: not known, a remote engine) */
    private readonly keyQuota: () => Promise<KeyQuota | null> = async () => (engineIsLocal() ? readKeyQuota() : null),
  ) {}

  /** a lab's request in bytes: the setting, never more than its limit */
  requestOf(ramGb: number): number {
    return Math.min(this.config.LAB_MEMORY_REQUEST_MB * MB, Math.max(1, ramGb) * GB);
  }

  private async hostSize(): Promise<{ memory: number; cpus: number; keys: KeyQuota | null }> {
    if (this.host && this.host.until > Date.now()) return this.host;
    const info = (await (await this.api()).info()) as { MemTotal?: number; NCPU?: number };
    if (!info.MemTotal) throw new LabEngineError('The lab engine did not say how much memory its host has.');
    const keys = await this.keyQuota();
    this.host = { memory: info.MemTotal, cpus: info.NCPU ?? 1, keys, until: Date.now() + HOST_TTL_MS };
    return this.host;
  }

  /** Refuses a lab whose limit exceeds the host's memory (it could never get what it was promised). */
  async checkLimit(ramGb: number): Promise<void> {
    const { memory } = await this.hostSize();
    if (ramGb * GB > memory) {
      throw new LabEngineError(
        `A lab of ${ramGb} GB cannot run on this lab host: it has ${gb(memory)} GB of memory in all. Choose less RAM.`,
      );
    }
  }

  async capacity(except?: string): Promise<LabCapacity> {
    const docker = await this.api();
    const { memory, cpus, keys } = await this.hostSize();
    const running = await docker.listContainers({
      filters: { label: [this.labels.lab, `${this.labels.install}=${this.labels.ns}`], status: ['running'] },
    });
    let requested = 0;
    let count = 0;
    const counted = new Set<string>();
    for (const c of running) {
      const ref = c.Labels[this.labels.lab];
      if (ref) counted.add(ref);
      if (except && ref === except) continue;
      const label = Number(c.Labels[REQUEST_LABEL]);
      // a lab made before requests were recorded counts at today's default
      requested += Number.isFinite(label) && label > 0 ? label : this.config.LAB_MEMORY_REQUEST_MB * MB;
      count++;
    }
    // labs admitted whose containers are still starting hold their request already
    for (const [ref, request] of this.starting) {
      if (ref === except || counted.has(ref)) continue;
      requested += request;
      count++;
    }
    const allocatable = Math.max(0, memory - this.config.LAB_MEMORY_RESERVE_MB * MB);
    return {
      hostMemory: memory,
      hostCpus: cpus,
      allocatable,
      requested,
      running: count,
      keyLimit: keys ? labsByKeys(keys) : null,
      keys,
    };
  }

  /**
   * Runs `start` (the engine's start of lab `ref`) when the lab's request fits beside the running
   * labs'; refuses it otherwise. The decisions are serialized, the starts are not: an admitted lab
   * holds its request (`starting`) from its decision until its container runs, so the next decision
   * counts it, while the engine starts many containers at once (a class's labs at the bell: one start
   * at a time made 50 labs take 100 s where the engine does them in parallel).
   */
  async admit<T>(ref: string, ramGb: number, start: () => Promise<T>): Promise<T> {
    const decide = async () => {
      await this.checkLimit(ramGb);
      const need = this.requestOf(ramGb);
      const now = await this.capacity(ref);
      if (now.requested + need > now.allocatable) {
        throw new LabEngineError(
          `The lab host is full: its ${now.running} running labs hold ${gb(now.requested)} of the ${gb(now.allocatable)} GB it gives labs, and this lab needs ${gb(need)} GB more. Stop a lab or try again later.`,
        );
      }
      if (now.keyLimit != null && now.running + 1 > now.keyLimit) {
        const q = now.keys!;
        throw new LabEngineError(
          `The lab host is full: its kernel's key quota (kernel.keys.maxkeys ${q.maxkeys}, maxbytes ${q.maxbytes}) holds ${now.keyLimit} running labs with their terminals and desktops, and ${now.running} run. Stop a lab, or raise the quota on the lab host (${KEYS_ADVICE}).`,
        );
      }
      this.starting.set(ref, need);
    };
    const decided = this.queue.then(decide, decide);
    this.queue = decided.catch(() => undefined);
    await decided;
    try {
      return await start();
    } finally {
      this.starting.delete(ref);
    }
  }
}
