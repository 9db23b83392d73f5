import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Files wait on timers, child processes and sockets much of the time: on two cores three forks
    // keep both busy (Vitest's default, one fewer than the cores, would leave one idle).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
