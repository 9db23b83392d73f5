/**
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
}

/** What the engine says a machine is doing right now. */
export type LabState = 'running' | 'stopped' | 'missing';

/** Where our server connects to reach a lab (never sent to the browser). */
export interface LabEndpoint {
  ssh?: { host: string; port: number; username: string };
  vnc?: { host: string; port: number };
  rdp?: { host: string; port: number };
}

export interface LabProvider {
  readonly name: 'local' | 'memory' | 'gce';
  /** null when the engine can run labs here, else a message a person can act on */
  problem(): Promise<string | null>;
  create(spec: LabSpec): Promise<{ ref: string }>;
  start(ref: string, spec: LabSpec): Promise<void>;
  stop(ref: string): Promise<void>;
  delete(ref: string): Promise<void>;
  status(ref: string): Promise<LabState>;
  connection(ref: string): Promise<LabEndpoint>;
  close?(): Promise<void>;
}

/** An engine refused or failed: the message is safe to show (no credentials). */
export class LabEngineError extends Error {}
