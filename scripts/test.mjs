// npm test: every test. Typecheck and lint, server integration tests (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), the database fault test (when PostgreSQL's and Redis's server binaries
// are installed), web component tests, then the Chromium journeys, and the journeys across
// two server instances when TEST_DATABASE_URL is set and Redis answers at REDIS_URL.
// first: an older node is refused here, before anything is installed or built
import './node-check.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUILDS, inputHash, stamp, upToDate } from './build-stamp.mjs';
import { ensureInstall } from './ensure-install.mjs';
import { imageBuilt } from './image-built.mjs';
import { firstStartOver, labImageReady } from './lab-image-ready.mjs';
import { installLine, missingPackages, skippedBy } from './prerequisites.mjs';
import { clusterPrerequisites } from './test-cluster.mjs';

// The Debian packages the suites need, before anything starts: a missing one stops the run at once
// with the line that installs them all, or, with --skip-missing, every part that needs it is named
// and left out (never silently).
const SKIP_MISSING = process.argv.includes('--skip-missing');
const missing = missingPackages();
if (missing.length && !SKIP_MISSING) {
  console.error(`npm test needs Debian packages that are not installed: ${missing.map((p) => p.name).join(', ')}.`);
  console.error(`Install them all with:\n  ${installLine(missing)}`);
  console.error('(or run `npm test -- --skip-missing` to run only the parts that need none of them)');
  process.exit(1);
}
const skipped = skippedBy(missing);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
const notRun = [];
/** A step that needs a missing package (--skip-missing): named among those not run, and false. */
function runs(key, name) {
  const lacking = missing.filter((p) => p.steps.includes(key)).map((p) => p.name);
  if (!lacking.length) return true;
  notRun.push(`${name}: needs ${lacking.join(', ')} (apt-get install -y ${lacking.join(' ')})`);
  console.log(`\n– ${name}: not run, needs ${lacking.join(', ')}.`);
  return false;
}
// the server test files that need a missing package are left out of the server suites, by name
const serverExcludes = skipped.serverFiles.flatMap((f) => ['--exclude', f]);
for (const f of skipped.serverFiles)
  notRun.push(
    `server test file ${f}: needs ${missing
      .filter((p) => p.serverFiles.includes(f))
      .map((p) => p.name)
      .join(', ')}`,
  );

const results = [];
results.push(
  ...(await Promise.all([
    run('typecheck', 'npm', ['run', 'typecheck']),
    run('lint (biome)', 'npx', ['biome', 'check', '.']),
    // imports go down the server's floors and never in a circle (.dependency-cruiser.cjs)
    run('layers (dependency-cruiser)', 'npm', ['run', 'lint:layers']),
  ])),
);
results.push(
  await run('server tests on PGlite', 'npx', [...vitest('apps/server', 'server-pglite.json'), ...serverExcludes], {
    TEST_DATABASE_URL: '',
  }),
);
count(path.join(reports, 'server-pglite.json'));
if (process.env.TEST_DATABASE_URL) {
  results.push(
    await run('server tests on PostgreSQL', 'npx', [...vitest('apps/server', 'server-pg.json'), ...serverExcludes], {
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
    }),
  );
  count(path.join(reports, 'server-pg.json'));
}
// The database fault test: two server processes beside a throwaway PostgreSQL cluster and Redis of
// its own (restarted and stopped by the test, so no shared database is touched).
const FAULT_STEP = 'database fault test (two instances, PostgreSQL restarted and stopped)';
const faults = faultTestPrerequisites();
if (!runs('faults', FAULT_STEP)) {
  // named above
} else if (faults.ok) {
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
const labEngine = skipped.steps.has('containers') ? undefined : await labImageReady();
if (!runs('containers', CONTAINERS_STEP)) {
  // named above
} else if (labEngine.ok) {
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
// The build: skipped when the build stamps say dist was built from exactly these sources (CI's first
// start, scripts/first-start.mjs, has built them with `npm start`; it is over by now: labImageReady
// waited for it, and nothing may rebuild dist under its server). Otherwise built and stamped.
const staleBuilds = BUILDS.filter((b) => !upToDate(b, inputHash(b)));
if (staleBuilds.length === 0) {
  console.log('\n✔ build: dist is up to date with these sources (build stamps), not built again');
  results.push({ name: 'build (up to date)', ok: true });
} else {
  await firstStartOver();
  const hashes = BUILDS.map((b) => inputHash(b));
  const built = await run('build', 'npm', ['run', 'build']);
  if (built.ok) for (const [i, b] of BUILDS.entries()) stamp(b, hashes[i]);
  results.push(built);
}
// The artefact npm start runs: every chunk of apps/server/dist loads in a fresh production process
// (a library loaded on first use that cannot load would otherwise show only at a user's first use).
results.push(await run('server chunks load (built server)', process.execPath, ['scripts/check-server-chunks.mjs']));
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
const journeys = runs('journeys', 'Chromium journeys and every-route walks');
results.push(
  ...(await Promise.all(
    (journeys ? E2E_RUNS : []).map(([name, shard, port, width]) =>
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
const cluster = runs('cluster', CLUSTER_STEP) ? await clusterPrerequisites() : undefined;
if (!cluster) {
  // named above
} else if (cluster.ok) {
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
if (runs('janus-journey', JANUS_STEP)) {
  results.push(
    await run(JANUS_STEP, 'npx', ['playwright', 'test', '--config', 'e2e/playwright.janus.config.ts'], {
      E2E_JANUS_PORT: String(process.env.E2E_JANUS_PORT ?? e2ePort + 60),
      E2E_OUTPUT_DIR: path.join(reports, 'e2e-janus-results'),
      PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'e2e-janus.json'),
      CHROMIUM_PATH: chromium,
    }),
  );
  count(path.join(reports, 'e2e-janus.json'));
}

// A class of 5 end to end against the built server (bench/class.ts): labs started by the schedule,
// a Janus room, the lab desktops, a pre-test, attendance and certificates. Its figures are read, not
// checked (docs/benchmarks.md); it fails when a phase does not work at all, so the bench cannot rot.
const CLASS_STEP = 'class bench, N = 5 (labs, Janus room, pre-test, end)';
if (!runs('class-bench', CLASS_STEP)) {
  // named above
} else if (!process.env.TEST_DATABASE_URL || !labEngine?.ok) {
  const why = process.env.TEST_DATABASE_URL
    ? (labEngine?.reason ?? 'the container lab engine is skipped')
    : 'needs PostgreSQL (TEST_DATABASE_URL)';
  notRun.push(`${CLASS_STEP}: ${why}`);
  console.log(`\n– ${CLASS_STEP}: not run, ${why}.`);
} else {
  const admin = new URL(process.env.TEST_DATABASE_URL);
  admin.pathname = '/postgres';
  results.push(
    await run(CLASS_STEP, 'npm', ['run', 'bench:class'], {
      BENCH_CLASS_N: '5',
      BENCH_CLASS_WINDOW_S: '5',
      BENCH_CLASS_PORT: String(e2ePort + 80),
      BENCH_PG_URL: admin.toString(),
      CHROMIUM_PATH: chromium,
    }),
  );
}

// The production image (Dockerfile, scripts/image.mjs): .ci/run builds it in the background once the
// first start is over (IMAGE_BUILD_DONE names the file its exit code goes to, IMAGE_TAG the image);
// here it runs as a deployment runs it, against this machine's PostgreSQL (scripts/image-check.mjs).
const IMAGE_STEP = 'production image (against PostgreSQL: ready, a login, a list call, no root, healthy)';
if (!process.env.IMAGE_BUILD_DONE || !process.env.IMAGE_TAG) {
  notRun.push(`${IMAGE_STEP}: CI builds it (.ci/run); here: npm run image && npm run image:check`);
} else {
  const built = await imageBuilt(process.env.IMAGE_BUILD_DONE);
  if (built.ok) {
    results.push(await run(IMAGE_STEP, process.execPath, ['scripts/image-check.mjs', '--tag', process.env.IMAGE_TAG]));
  } else {
    console.log(`\n✘ ${IMAGE_STEP}: ${built.reason}`);
    results.push({ name: IMAGE_STEP, ok: false });
    failures.push(`${IMAGE_STEP}: ${built.reason}`);
  }
}

const failedSteps = results.filter((r) => !r.ok).map((r) => r.name);
console.log('\nSteps:', results.map((r) => `${r.ok ? '✔' : '✘'} ${r.name}`).join(', '));
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join(', ')}`);
for (const line of notRun) console.log(`Not run: ${line}`);
for (const line of failures) console.log(`Failed: ${line.slice(0, 400)}`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length ? 1 : 0);
