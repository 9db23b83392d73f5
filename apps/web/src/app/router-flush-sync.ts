import { flushSync } from 'react-dom';

/**
 * Lets the router commit a navigation synchronously when asked (`flushSync: true`), as the
 * RouterProvider of 'react-router/dom' does; used when the session ends under the current page.
 */
export function routerFlushSync(fn: () => unknown): undefined {
  flushSync(fn);
  return undefined;
}
