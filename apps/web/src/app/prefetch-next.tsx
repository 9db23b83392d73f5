import { useEffect } from 'react';
import { isLazyPage } from './lazy-page';
import { NEXT_FILES_ID } from './likely-next';

type Idle = (cb: () => void) => number;

/** The files of each likely-next screen, as the build named them in index.html (none in development). */
function builtFiles(): Record<string, string[]> | null {
  const block = document.getElementById(NEXT_FILES_ID);
  if (!block?.textContent) return null;
  try {
    return JSON.parse(block.textContent) as Record<string, string[]>;
  } catch {
    return null;
  }
}

/** Asks for a file at idle priority into the cache, without running it (once per file). */
function prefetchFile(href: string): void {
  if (document.head.querySelector(`link[rel="prefetch"][href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'prefetch';
  link.href = href;
  link.setAttribute('as', href.endsWith('.css') ? 'style' : 'script');
  document.head.append(link);
}

/**
 * When the browser is next idle, fetches what the screens under `keys` need: in the production build
 * by <link rel="prefetch"> of the files the build named (downloaded, not evaluated, so the first
 * page's main thread stays free); without a build's list (development), by loading `pages`' chunks.
 */
export function prefetchWhenIdle(keys: string[], pages: unknown[], idle: Idle = defaultIdle): void {
  const files = builtFiles();
  const lazy = pages.filter(isLazyPage);
  if (!files && lazy.length === 0) return;
  idle(() => {
    if (files) {
      for (const key of keys) for (const href of files[key] ?? []) prefetchFile(href);
      return;
    }
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
export function PrefetchNext({ keys, pages }: { keys: string[]; pages: unknown[] }) {
  useEffect(() => prefetchWhenIdle(keys, pages), [keys, pages]);
  return null;
}
