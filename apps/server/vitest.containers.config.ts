import { defineConfig } from 'vitest/config';

/**
 * The container lab engine against the real Docker engine (containers/): one file at a time, once
 * (on the embedded database). `npm test` runs it as a step of its own when Docker answers and the lab
 * image is built (.ci/run sees to both).
 */
export default defineConfig({
  test: {
    include: ['containers/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    minWorkers: 1,
    // a collection on demand: the flood tests measure what the server holds, not garbage not yet freed
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
