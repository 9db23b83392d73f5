import type { Config } from '../../platform/config';
import { GceLabs } from './gce';
import { LocalLabs } from './local';
import { MemoryLabs } from './memory';
import type { LabProvider } from './provider';

export { GceLabs } from './gce';
export { LAB_USER_PREFIX, LOCAL_LAB_PACKAGES, LocalLabs } from './local';
export { MemoryLabs } from './memory';
export type { LabEndpoint, LabProvider, LabSpec, LabState } from './provider';
export { LabEngineError } from './provider';

export function createLabProvider(config: Config): LabProvider {
  switch (config.LAB_PROVIDER) {
    case 'memory':
      return new MemoryLabs();
    case 'gce':
      return new GceLabs(config);
    default:
      return new LocalLabs(config);
  }
}

/**
 * Deps has no lab slot (platform/deps.ts is shared); one engine per Deps is built on first use.
 * Tests may replace it (setLabProvider) and the clock the meters read (setLabClock).
 */
const engines = new WeakMap<object, LabProvider>();
const clocks = new WeakMap<object, () => Date>();
export function labsFor(deps: { config: Config }): LabProvider {
  let engine = engines.get(deps);
  if (!engine) {
    engine = createLabProvider(deps.config);
    engines.set(deps, engine);
  }
  return engine;
}
export function setLabProvider(deps: object, engine: LabProvider): void {
  engines.set(deps, engine);
}
export const labNow = (deps: object): Date => (clocks.get(deps) ?? (() => new Date()))();
export function setLabClock(deps: object, clock: () => Date): void {
  clocks.set(deps, clock);
}
