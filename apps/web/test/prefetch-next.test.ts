import { WEB_ROUTES } from '@trainlab/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLazyPage, lazyPage } from '../src/app/lazy-page';
import { LIKELY_NEXT, NEXT_FILES_ID, NEXT_MODULES } from '../src/app/likely-next';
import { pageFor } from '../src/app/page-registry';
import { prefetchWhenIdle } from '../src/app/prefetch-next';

const now = (cb: () => void) => {
  cb();
  return 1;
};

afterEach(() => {
  for (const el of document.head.querySelectorAll(`#${NEXT_FILES_ID}, link[rel="prefetch"]`)) el.remove();
});

describe('prefetching the likely next route', () => {
  it('names real routes whose screens are lazily loaded chunks, each with its source module for the build', () => {
    const patterns = new Set(WEB_ROUTES.map((r) => r.path));
    for (const [from, next] of Object.entries(LIKELY_NEXT)) {
      expect(patterns.has(from), from).toBe(true);
      for (const p of next) {
        expect(patterns.has(p), p).toBe(true);
        expect(isLazyPage(pageFor(p)), p).toBe(true);
        expect(NEXT_MODULES[p], p).toMatch(/^src\/.+\.tsx$/);
      }
    }
  });

  it('with the build’s list: adds one prefetch link per file at idle time and runs nothing', () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = NEXT_FILES_ID;
    block.textContent = JSON.stringify({ '/courses': ['/assets/CatalogPages-x.js', '/assets/DataTable-y.css'] });
    document.head.append(block);
    const load = vi.fn(async () => ({ Page: () => null }));
    let idleCallback: (() => void) | undefined;
    prefetchWhenIdle(['/courses'], [lazyPage(load, 'Page')], (cb) => {
      idleCallback = cb;
      return 1;
    });
    expect(document.head.querySelectorAll('link[rel="prefetch"]')).toHaveLength(0);
    idleCallback?.();
    prefetchWhenIdle(['/courses'], [], now);
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')];
    expect(links.map((l) => [l.getAttribute('href'), l.getAttribute('as')])).toEqual([
      ['/assets/CatalogPages-x.js', 'script'],
      ['/assets/DataTable-y.css', 'style'],
    ]);
    expect(load).not.toHaveBeenCalled();
  });

  it('without a build’s list (development): loads the chunks once the browser is idle', async () => {
    const load = vi.fn(async () => ({ Page: () => null }));
    const page = lazyPage(load, 'Page');
    let idleCallback: (() => void) | undefined;
    prefetchWhenIdle(['/courses'], [page, () => null], (cb) => {
      idleCallback = cb;
      return 1;
    });
    expect(load).not.toHaveBeenCalled();
    idleCallback?.();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed prefetch is swallowed (the route reports it when opened)', async () => {
    const page = lazyPage(() => Promise.reject(new Error('offline')), 'Page' as never);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    prefetchWhenIdle(['/courses'], [page], now);
    await new Promise((r) => setTimeout(r, 10));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('does nothing for a list without lazy screens', () => {
    const idle = vi.fn();
    prefetchWhenIdle(['/courses'], [() => null], idle);
    expect(idle).not.toHaveBeenCalled();
  });
});
