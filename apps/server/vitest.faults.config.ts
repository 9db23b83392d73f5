import { defineConfig } from 'vitest/config';

/**
 * The database fault test (faults/): real server processes beside a throwaway PostgreSQL and Redis,
 * one file at a time. Kept out of the main suite (vitest.config.ts), which runs files side by side;
 * `npm test` runs it as a step of its own when PostgreSQL's binaries and redis-server are installed.
 */
export default defineConfig({
  test: {
    include: ['faults/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    minWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
