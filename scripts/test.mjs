// npm test: every test. Typecheck and lint, server integration tests (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), the database fault test (when PostgreSQL's and Redis's server binaries
// are installed), web component tests, then the Chromium journeys, and the journeys across
// two server instances when TEST_DATABASE_URL is set and Redis answers at REDIS_URL.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureInstall } from './ensure-install.mjs';
import { labImageReady } from './lab-image-ready.mjs';
import { clusterPrerequisites } from './test-cluster.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium was not found at ${chromium}. Install it with: apt-get install -y chromium`);
  console.error('(or set CHROMIUM_PATH to another Chromium binary)');
  process.exit(1);
}
ensureInstall();

/** PostgreSQL's server binaries (initdb, pg_ctl) and redis-server, as apps/server/faults/prerequisites.ts finds them. */
function faultTestPrerequisites() {
  const root = '/usr/lib/postgresql';
  const pgBin =
    process.env.PG_BIN ||
    (existsSync(root) ? readdirSync(root).find((d) => existsSync(path.join(root, d, 'bin', 'initdb'))) : undefined);
  if (!pgBin)
    return { ok: false, reason: 'PostgreSQL server binaries are not installed (apt-get install -y postgresql)' };
  if (!existsSync(process.env.REDIS_SERVER || '/usr/bin/redis-server'))
    return { ok: false, reason: 'redis-server is not installed (apt-get install -y redis-server)' };
  return { ok: true };
}

const reports = mkdtempSync(path.join(tmpdir(), 'trainlab-test-'));
const totals = { passed: 0, failed: 0 };
// The failed tests by name, printed again at the very end: a long run's log is often read from its
// tail, where a step's own report has scrolled away.
const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim()) ?? '';

function run(name, command, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n▶ ${name}`);
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => {
      console.log(`${code === 0 ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      resolve({ name, ok: code === 0 });
    });
  });
}

function vitestFailures(step, r) {
  for (const file of r.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      failures.push(`${step}: ${file.name} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that fails before any test runs (an import or a beforeAll) reports no failed test.
    if (!failed.length && file.status === 'failed') failures.push(`${step}: ${file.name}: ${firstLine(file.message)}`);
  }
}

function playwrightFailures(step, suite, titles = []) {
  const trail = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status !== 'unexpected') continue;
      const last = t.results?.[t.results.length - 1];
      failures.push(`${step}: ${[...trail, spec.title].join(' › ')}: ${firstLine(last?.error?.message)}`);
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(step, child, trail);
}

function count(file, step = path.basename(file, '.json')) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if (r.numPassedTests !== undefined) {
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    vitestFailures(step, r);
  } else if (r.stats) {
    totals.passed += r.stats.expected + (r.stats.flaky ?? 0);
    totals.failed += r.stats.unexpected;
    for (const suite of r.suites ?? []) playwrightFailures(step, suite);
  }
}

const vitest = (project, out) => [
  'vitest',
  'run',
  '--root',
  project,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${path.join(reports, out)}`,
];

const results = [];
results.push(
  ...(await Promise.all([
    run('typecheck', 'npm', ['run', 'typecheck']),
    run('lint (biome)', 'npx', ['biome', 'check', '.']),
  ])),
);
results.push(
  await run('server tests on PGlite', 'npx', vitest('apps/server', 'server-pglite.json'), { TEST_DATABASE_URL: '' }),
);
count(path.join(reports, 'server-pglite.json'));
if (process.env.TEST_DATABASE_URL) {
  results.push(
    await run('server tests on PostgreSQL', 'npx', vitest('apps/server', 'server-pg.json'), {
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
    }),
  );
  count(path.join(reports, 'server-pg.json'));
}
// The database fault test: two server processes beside a throwaway PostgreSQL cluster and Redis of
// its own (restarted and stopped by the test, so no shared database is touched).
const FAULT_STEP = 'database fault test (two instances, PostgreSQL restarted and stopped)';
const notRun = [];
const faults = faultTestPrerequisites();
if (faults.ok) {
  results.push(
    await run(FAULT_STEP, 'npx', [...vitest('apps/server', 'faults.json'), '--config', 'vitest.faults.config.ts']),
  );
  count(path.join(reports, 'faults.json'));
} else {
  notRun.push(`${FAULT_STEP}: ${faults.reason}`);
  console.log(`\n– ${FAULT_STEP}: not run, ${faults.reason}.`);
}
// The container lab engine against the real Docker engine, once, when Docker answers (.ci/run starts
// dockerd and builds the lab image meanwhile: LAB_IMAGE_BUILD_DONE).
const CONTAINERS_STEP = 'container lab engine (real Docker: sandbox attacks, limits, stop and start)';
const labEngine = await labImageReady();
if (labEngine.ok) {
  results.push(
    await run(CONTAINERS_STEP, 'npx', [
      ...vitest('apps/server', 'containers.json'),
      '--config',
      'vitest.containers.config.ts',
    ]),
  );
  count(path.join(reports, 'containers.json'));
} else if (process.env.REQUIRE_CONTAINER_LABS === '1') {
  // CI promises this step: not being able to run it is a failure, not a note
  console.log(`\n✘ ${CONTAINERS_STEP}: ${labEngine.reason}.`);
  results.push({ name: CONTAINERS_STEP, ok: false });
} else {
  notRun.push(`${CONTAINERS_STEP}: ${labEngine.reason}`);
  console.log(`\n– ${CONTAINERS_STEP}: not run, ${labEngine.reason}.`);
}
results.push(await run('contract tests', 'npx', vitest('packages/contract', 'contract.json')));
count(path.join(reports, 'contract.json'));
results.push(await run('web component tests', 'npx', vitest('apps/web', 'web.json')));
count(path.join(reports, 'web.json'));
results.push(await run('build', 'npm', ['run', 'build']));
// Three Playwright runs side by side, each with its own server, port, data folder and output folder:
// every journey, and the every-route walk (accessibility and content policy) at each of its two widths.
const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const E2E_RUNS = [
  ['Chromium journeys', 'journeys', e2ePort, ''],
  ['Chromium every-route walk at a laptop width', 'walk', e2ePort + 2, 'laptop'],
  ['Chromium every-route walk at a phone width', 'walk', e2ePort + 4, 'phone'],
];
const niceFor = (shard, [command, ...args]) =>
  shard === 'walk' ? ['nice', ['-n', '10', command, ...args]] : [command, args];
const e2eReport = (shard, width) => path.join(reports, `e2e-${shard}${width ? `-${width}` : ''}`);
results.push(
  ...(await Promise.all(
    E2E_RUNS.map(([name, shard, port, width]) =>
      // The walks yield the processor to the journeys (niceness is inherited by their server and
      // Chromium): a journey's live media and its timers need it now, a walk only needs it eventually.
      run(name, ...niceFor(shard, ['npx', 'playwright', 'test', '--config', 'e2e/playwright.config.ts']), {
        E2E_SHARD: shard,
        E2E_WALK_WIDTH: width,
        E2E_PORT: String(port),
        E2E_OUTPUT_DIR: `${e2eReport(shard, width)}-results`,
        E2E_DATA_DIR: '',
        PLAYWRIGHT_JSON_OUTPUT_NAME: `${e2eReport(shard, width)}.json`,
        // each run its own compile cache: three runs writing one cache at once let one of them read
        // a file another was still writing ("does not provide an export named …", no tests found)
        PWTEST_CACHE_DIR: `${e2eReport(shard, width)}-transform-cache`,
        CHROMIUM_PATH: chromium,
      }),
    ),
  )),
);
for (const [, shard, , width] of E2E_RUNS) count(`${e2eReport(shard, width)}.json`);

// Two server instances sharing PostgreSQL and Redis (scripts/test-cluster.mjs makes a fresh database).
const CLUSTER_STEP = 'Chromium journeys across two instances (Redis)';
const cluster = await clusterPrerequisites();
if (cluster.ok) {
  results.push(
    await run(CLUSTER_STEP, process.execPath, ['scripts/test-cluster.mjs'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'e2e-cluster.json'),
      CHROMIUM_PATH: chromium,
    }),
  );
  count(path.join(reports, 'e2e-cluster.json'));
} else {
  notRun.push(`${CLUSTER_STEP}: ${cluster.reason}`);
  console.log(`\n– ${CLUSTER_STEP}: not run, ${cluster.reason}.`);
}

// The conference with the Janus engine: its own server beside a throwaway Janus (Debian's janus).
const JANUS_STEP = 'Chromium journey with the Janus engine';
if (existsSync(process.env.JANUS_BIN || '/usr/bin/janus')) {
  results.push(
    await run(JANUS_STEP, 'npx', ['playwright', 'test', '--config', 'e2e/playwright.janus.config.ts'], {
      E2E_JANUS_PORT: String(process.env.E2E_JANUS_PORT ?? e2ePort + 60),
      E2E_OUTPUT_DIR: path.join(reports, 'e2e-janus-results'),
      PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'e2e-janus.json'),
      CHROMIUM_PATH: chromium,
    }),
  );
  count(path.join(reports, 'e2e-janus.json'));
} else {
  console.log(`\n✘ ${JANUS_STEP}: Janus is not installed. Install it with: apt-get install -y janus janus-tools`);
  results.push({ name: `${JANUS_STEP} (Janus not installed: apt-get install -y janus janus-tools)`, ok: false });
}

const failedSteps = results.filter((r) => !r.ok).map((r) => r.name);
console.log('\nSteps:', results.map((r) => `${r.ok ? '✔' : '✘'} ${r.name}`).join(', '));
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join(', ')}`);
for (const line of notRun) console.log(`Not run: ${line}`);
for (const line of failures) console.log(`Failed: ${line.slice(0, 400)}`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length ? 1 : 0);
