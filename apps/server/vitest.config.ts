import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Files wait on timers, child processes and sockets much of the time: on two cores three forks
    // keep both busy (Vitest's default, one fewer than the cores, would leave one idle).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    minWorkers: 1,
    // A test's time is the machine's as much as the code's: CI builds the lab image beside these
    // files, and several tests (three forks on two cores) run ffmpeg, argon2 or a child server.
    // The limit catches a hang; how fast things are is measured in bench/, not here.
    // A file's beforeAll opens a fresh database: on PGlite that is compiling PostgreSQL's WebAssembly
    // and every migration, 3–5 s alone and past 60 s on a machine at load 15 (seen in the job tests'
    // 50-run loop), so hooks get 120 s.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
