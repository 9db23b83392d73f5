import 'dotenv/config';
import { COURSE_MSG } from '@trainlab/contract';
import { buildApp } from './app';
import { closeDeps, openDeps, prepareDatabase } from './bootstrap';
import { mediaToolsAvailable } from './domains/courses/media-tools';
import { mediaTools } from './domains/courses/video';
import { pruneAudit } from './platform/audit';
import { ConfigError, loadConfig } from './platform/config';
import { demoAccountsOn, devMailboxOn } from './platform/exposure';
import { startJobRunner } from './platform/jobs';
import { prettyLogsWanted } from './platform/log-output';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/demo';
import { startupVerdict } from './startup-verdict';

async function main() {
  // whatever this process (or ffmpeg, or the embedded database) writes is this account's alone
  process.umask(0o077);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const deps = await openDeps(config);

  // The server listens before the database answers: until migrations and the start-up data are done,
  // /api/live answers 200, /api/ready and every other call 503 with Retry-After.
  let starting = true;
  let prepared!: () => void;
  const databaseReady = new Promise<void>((resolve) => {
    prepared = resolve;
  });
  const app = await buildApp(deps, {
    logger: true,
    prettyLogs: prettyLogsWanted(config.NODE_ENV, process.stdout.isTTY),
    starting: () => starting,
    databaseReady,
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  // migrations and the seed hold the database's start-up lock: instances may start together. While
  // this waits, a signal ends the process as by default (nothing is in hand yet).
  const { seeded } = await prepareDatabase(deps, { log: (message) => app.log.warn(message) });
  // what a fresh install would expose: refused before any call is served (every call has answered 503
  // until now), or said loudly (platform/exposure.ts)
  const verdict = await startupVerdict(config, deps.db, deps.secrets);
  if (verdict.refusals.length > 0) {
    for (const line of verdict.refusals) console.error(line);
    await app.close();
    await closeDeps(deps);
    process.exit(1);
  }
  starting = false;
  prepared();
  const jobRunner = startJobRunner(deps);
  // audit rows past AUDIT_RETENTION_DAYS go once an hour (and at start)
  const prune = () => pruneAudit(deps).catch((e) => app.log.warn({ err: e }, 'audit retention clean-up failed'));
  void prune();
  const pruneTimer = setInterval(prune, 3600_000);
  pruneTimer.unref();
  const url = config.PUBLIC_URL;
  console.log(`\nTrainLab is running at ${url}  (API under ${url}/api, reference at ${url}/api/docs)`);
  console.log(`Database: ${deps.database.kind}${seeded ? ' (demo data seeded)' : ''}; mail: ${deps.mail.kind}`);
  if (!mediaToolsAvailable(mediaTools(deps)))
    console.warn(`WARNING: ${COURSE_MSG.ffmpegMissing} (apt-get install ffmpeg)`);
  if (demoAccountsOn(config)) {
    console.log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) console.log(`  ${a.role.padEnd(18)} ${a.email}`);
  }
  if (devMailboxOn(config)) console.log(`Dev mailbox: ${url}/dev/mailbox\n`);
  for (const line of verdict.warnings) console.warn(line);
  // the container engine's lab image, built once per engine (minutes: labs say so until it is ready)
  if (config.LAB_PROVIDER === 'container' && config.LAB_IMAGE_AUTOBUILD) {
    void import('./adapters/labs/container-image').then(({ ensureLabImage }) =>
      // debootstrap's few hundred progress lines ("I: Retrieving …") at debug; the build's own steps,
      // warnings and errors at info
      ensureLabImage(config.LAB_IMAGE, (line) => (line.startsWith('I: ') ? app.log.debug(line) : app.log.info(line))),
    );
  }

  // Graceful shutdown: stop accepting, tell conference sockets to reconnect, let in-flight requests
  // and the job in hand finish, then close the database.
  // A second signal exits at once; past SHUTDOWN_GRACE_SECONDS the process exits anyway (code 1).
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(pruneTimer);
    const timer = setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_SECONDS * 1000);
    timer.unref();
    // the job runner stops after the job in hand while the requests drain
    const jobsStopped = jobRunner.stop().then(() => app.log.info('jobs stopped'));
    try {
      await app.close();
      app.log.info('requests drained');
      await jobsStopped;
      await closeDeps(deps);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
