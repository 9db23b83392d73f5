import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A screen loaded on demand: each feature file becomes its own chunk, fetched when its route opens.
 * `preload()` fetches the chunk ahead of time (the route a person is likely to open next).
 */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/** `lazyPage(() => import('./CoursePages'), 'AllCoursesPage')`: the named export of a module, loaded lazily. */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): LazyPage {
  const page = lazy(() => load().then((m) => ({ default: m[name] as ComponentType }))) as LazyPage;
  page.preload = load;
  return page;
}

export function isLazyPage(page: unknown): page is LazyPage {
  return typeof (page as LazyPage | undefined)?.preload === 'function';
}
