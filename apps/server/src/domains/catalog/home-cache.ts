import type { Deps } from '../../platform/deps';
import { microCache } from '../../platform/micro-cache';
import { homeTrainings } from './catalog';

const caches = new WeakMap<Deps, () => ReturnType<typeof homeTrainings>>();

/**
 * The landing's trending lists, the same for every visitor: computed at most once every 10 s per
 * instance, for the API call and for the landing's server-side HTML alike.
 */
export function cachedHome(deps: Deps): ReturnType<typeof homeTrainings> {
  let get = caches.get(deps);
  if (!get) {
    get = microCache(10_000, () => homeTrainings(deps));
    caches.set(deps, get);
  }
  return get();
}
