import { describe, expect, it } from 'vitest';
import { microCache } from '../src/platform/micro-cache';

describe('microCache', () => {
  it('computes once for callers inside the interval, again after it', async () => {
    let clock = 0;
    let runs = 0;
    const get = microCache(
      10_000,
      async () => ++runs,
      () => clock,
    );
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    clock = 9_999;
    expect(await get()).toBe(1);
    clock = 10_000;
    expect(await get()).toBe(2);
    expect(runs).toBe(2);
  });

  it('does not keep a failure', async () => {
    let fail = true;
    const get = microCache(10_000, async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    await expect(get()).rejects.toThrow('down');
    fail = false;
    expect(await get()).toBe('ok');
  });
});
