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

// the port's types and error, for callers that already import the engines from here
export * from '../../platform/ports/labs';
export { MemoryLabs } from './memory';

/**
 * The configured engine's module, imported on first use: an engine's client library (Google
 * Compute's is 140 MB and five seconds of start-up) loads only on a server that runs that engine
 * (decision 0040). A new engine is one more case here, with a dynamic import, never a static one.
 */
export async function loadLabEngine(config: Config): Promise<LabProvider> {
  switch (config.LAB_PROVIDER) {
    case 'memory':
      return new (await import('./memory')).MemoryLabs();
    case 'gce':
      return new (await import('./gce')).GceLabs(config);
    case 'local':
      return new (await import('./local')).LocalLabs(config);
    case 'kubernetes':
      return new (await import('./kubernetes')).KubernetesLabs(config);
    default:
      return new (await import('./container')).ContainerLabs(config);
  }
}

/** The configured engine, its module loaded by the first call that needs the machines. */
export function createLabProvider(config: Config): LabProvider {
  let engine: Promise<LabProvider> | undefined;
  const use = () => {
    engine ??= loadLabEngine(config);
    return engine;
  };
  return {
    name: config.LAB_PROVIDER,
    problem: async () => (await use()).problem(),
    create: async (spec: LabSpec) => (await use()).create(spec),
    start: async (ref: string, spec: LabSpec) => (await use()).start(ref, spec),
    stop: async (ref: string) => (await use()).stop(ref),
    delete: async (ref: string) => (await use()).delete(ref),
    status: async (ref: string): Promise<LabState> => (await use()).status(ref),
    connection: async (ref: string): Promise<LabEndpoint> => (await use()).connection(ref),
    openShell: async (
      ref: string,
      size: { cols: number; rows: number },
      session?: string,
    ): Promise<LabStream | null> => {
      const e = await use();
      return e.openShell ? e.openShell(ref, size, session) : null;
    },
    openDesktop: async (ref: string): Promise<LabStream | null> => {
      const e = await use();
      return e.openDesktop ? e.openDesktop(ref) : null;
    },
    isolation: async (): Promise<Record<string, unknown> | null> => {
      const e = await use();
      return e.isolation ? e.isolation() : null;
    },
    capacity: async (): Promise<LabCapacity | null> => {
      const e = await use();
      return e.capacity ? e.capacity() : null;
    },
    listLabs: async (): Promise<EngineLab[] | null> => {
      const e = await use();
      return e.listLabs ? e.listLabs() : null;
    },
    // nothing to close when no call ever needed the engine
    close: async () => (engine ? (await engine).close?.() : undefined),
  };
}
