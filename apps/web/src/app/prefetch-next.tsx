import { useEffect } from 'react';
import { isLazyPage } from './lazy-page';

/**
 * The routes a person most likely opens next from the first pages: a visitor on the landing goes to
 * the catalogue; someone on /login lands on a dashboard in the signed-in frame (most sign-ins are
 * learners). Their chunks are fetched once the browser is idle, so the click does not wait for them,
 * and they cost the first page nothing.
 */
export const LIKELY_NEXT: Record<string, string[]> = {
  '/': ['/courses'],
  '/training-home': ['/courses'],
  '/login': ['/users'],
};

type Idle = (cb: () => void) => number;

/** Fetches the chunks of `pages` when the browser is next idle (at most once per chunk). */
export function prefetchWhenIdle(pages: unknown[], idle: Idle = defaultIdle): void {
  const lazy = pages.filter(isLazyPage);
  if (lazy.length === 0) return;
  idle(() => {
    // a failed prefetch is harmless: the route loads (and reports) its chunk when it is opened
    for (const page of lazy) page.preload().catch(() => {});
  });
}

/** After the page has loaded, at the browser's next idle moment: never in the way of the first page. */
const defaultIdle: Idle = (cb) => {
  const whenIdle = () =>
    typeof window.requestIdleCallback === 'function'
      ? window.requestIdleCallback(cb, { timeout: 5000 })
      : window.setTimeout(cb, 1);
  if (document.readyState === 'complete') return whenIdle();
  window.addEventListener('load', whenIdle, { once: true });
  return 0;
};

/** Mounted with a route: prefetches what is likely next from it. */
export function PrefetchNext({ pages }: { pages: unknown[] }) {
  useEffect(() => prefetchWhenIdle(pages), [pages]);
  return null;
}
