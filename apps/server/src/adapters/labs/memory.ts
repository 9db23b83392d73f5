import type { EngineLab, LabEndpoint, LabProvider, LabSpec, LabState } from '../../platform/ports/labs';
import { LabEngineError } from '../../platform/ports/labs';

/**
 * Simulated labs kept in this process: lifecycle and metering work, there is no machine to reach.
 * For tests and demonstrations on hosts without the local engine's packages. The state map is
 * public so tests can play an outside change (a machine stopped or gone while we were down).
 */
export class MemoryLabs implements LabProvider {
  readonly name = 'memory' as const;
  readonly machines = new Map<string, LabState>();

  async problem(): Promise<string | null> {
    return null;
  }
  async create(spec: LabSpec): Promise<{ ref: string }> {
    this.machines.set(spec.vmName, 'stopped');
    return { ref: spec.vmName };
  }
  async start(ref: string): Promise<void> {
    if (!this.machines.has(ref)) throw new LabEngineError('The machine no longer exists.');
    this.machines.set(ref, 'running');
  }
  async stop(ref: string): Promise<void> {
    if (this.machines.has(ref)) this.machines.set(ref, 'stopped');
  }
  async delete(ref: string): Promise<void> {
    this.machines.delete(ref);
  }
  async status(ref: string): Promise<LabState> {
    return this.machines.get(ref) ?? 'missing';
  }
  async connection(): Promise<LabEndpoint> {
    return {};
  }
  async listLabs(): Promise<EngineLab[]> {
    return [...this.machines.keys()].map((ref) => ({ ref, vmName: ref }));
  }
}
