import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A screen loaded on demand: each feature file becomes its own chunk, fetched when its route opens. */
export type LazyPage = LazyExoticComponent<ComponentType>;

/** `lazyPage(() => import('./CoursePages'), 'AllCoursesPage')`: the named export of a module, loaded lazily. */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): LazyPage {
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));
}
