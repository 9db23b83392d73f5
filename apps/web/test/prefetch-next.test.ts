import { WEB_ROUTES } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { isLazyPage, lazyPage } from '../src/app/lazy-page';
import { pageFor } from '../src/app/page-registry';
import { LIKELY_NEXT, prefetchWhenIdle } from '../src/app/prefetch-next';

describe('prefetching the likely next route', () => {
  it('names real routes whose screens are lazily loaded chunks', () => {
    const patterns = new Set(WEB_ROUTES.map((r) => r.path));
    for (const [from, next] of Object.entries(LIKELY_NEXT)) {
      expect(patterns.has(from), from).toBe(true);
      for (const p of next) {
        expect(patterns.has(p), p).toBe(true);
        expect(isLazyPage(pageFor(p)), p).toBe(true);
      }
    }
  });

  it('fetches the chunks only once the browser is idle, and ignores screens already loaded', async () => {
    const load = vi.fn(async () => ({ Page: () => null }));
    const page = lazyPage(load, 'Page');
    let idleCallback: (() => void) | undefined;
    prefetchWhenIdle([page, () => null], (cb) => {
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
    prefetchWhenIdle([page], (cb) => {
      cb();
      return 1;
    });
    await new Promise((r) => setTimeout(r, 10));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('does nothing for a list without lazy screens', () => {
    const idle = vi.fn();
    prefetchWhenIdle([() => null], idle);
    expect(idle).not.toHaveBeenCalled();
  });
});
