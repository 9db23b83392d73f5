/**
 * The lab engine port (the composition root, bootstrap.ts, picks an engine from adapters/labs and
 * hands it to the domains as Deps.labs).
 *
 * A lab engine: where labs run. The server keeps the records, meters and access rules; an engine
 * only creates, starts, stops, deletes and reports on the machines, and says how to reach them.
 */
export interface LabSpec {
  /** unique, URL-safe name (also the engine's reference unless it chooses its own) */
  vmName: string;
  /** the lab's login and its generated password */
  username: string;
  password: string;
  image: string;
  ram: number;
  storage: number;
  zone: string;
  /** the create form's software list (at create only): engines with an image of their own check it */
  softwares?: string;
}

/** What the engine says a machine is doing right now. */
export type LabState = 'running' | 'stopped' | 'missing';

/** Where our server connects to reach a lab (never sent to the browser). */
export interface LabEndpoint {
  /**
   * hostKeys: the SSH host keys the lab may present (base64 of the key blobs, as in known_hosts),
   * learned from the engine (the cloud's API, our own key file), never from the network: a shell
   * is opened only to a machine that shows one of them.
   */
  ssh?: { host: string; port: number; username: string; hostKeys: string[] };
  vnc?: { host: string; port: number };
  /** engines that open the shell and desktop themselves (openShell, openDesktop): what is there now */
  viaEngine?: { shell: boolean; desktop: boolean };
  rdp?: { host: string; port: number };
}

/** A shell or desktop stream the engine opens inside the lab itself (no port on any host). */
export interface LabStream {
  /** bytes to and from the lab's shell (a terminal) or its VNC server (a desktop) */
  readonly stream: import('node:stream').Duplex;
  /** a terminal's new size */
  resize?(cols: number, rows: number): Promise<void>;
  close(): void;
}

/** What one host can give labs (bytes), as the engine itself reports it. */
export interface LabCapacity {
  hostMemory: number;
  hostCpus: number;
  /** the host's memory less the reserve kept for the server, its database and the engine */
  allocatable: number;
  /** the memory requests of this install's running and starting labs */
  requested: number;
  running: number;
  /** the running labs the host kernel's key quota holds (adapters/labs/kernel-keys.ts); null: not known */
  keyLimit?: number | null;
  keys?: { maxkeys: number; maxbytes: number } | null;
}

/** A machine as the engine lists it. */
export interface EngineLab {
  ref: string;
  vmName: string;
}

export interface LabProvider {
  readonly name: 'container' | 'local' | 'memory' | 'gce' | 'kubernetes';
  /** null when the engine can run labs here, else a message a person can act on */
  problem(): Promise<string | null>;
  create(spec: LabSpec): Promise<{ ref: string }>;
  start(ref: string, spec: LabSpec): Promise<void>;
  stop(ref: string): Promise<void>;
  delete(ref: string): Promise<void>;
  status(ref: string): Promise<LabState>;
  connection(ref: string): Promise<LabEndpoint>;
  /**
   * Engines that reach a lab through their own API (containers) open its shell and desktop here;
   * null when this engine reaches labs through connection()'s addresses instead.
   */
  /**
   * session: the person's own terminal session in the lab (engines that can keep it attach to it
   * again, so a reload returns to the same shell); closing the stream ends what was opened for it.
   */
  openShell?(ref: string, size: { cols: number; rows: number }, session?: string): Promise<LabStream | null>;
  openDesktop?(ref: string): Promise<LabStream | null>;
  /** the host's memory and CPUs and what its labs ask for (engines that share one host's memory) */
  capacity?(): Promise<LabCapacity | null>;
  /** how labs are held apart from the host (disk cap, user namespaces, system calls), for /api/health */
  isolation?(): Promise<Record<string, unknown> | null>;
  /** every lab this engine holds for this install (its ref and vm_name), for the reconcile of orphans */
  listLabs?(): Promise<EngineLab[] | null>;
  close?(): Promise<void>;
}

/** An engine refused or failed: the message is safe to show (no credentials). */
export class LabEngineError extends Error {}
