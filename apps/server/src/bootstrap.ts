import path from 'node:path';
import { createFileStore } from './adapters/files';
import { createLabProvider } from './adapters/labs';
import { createMailer } from './adapters/mail';
import { createMeetingProvider } from './adapters/meeting';
import { paymentGateway } from './adapters/payments';
import { createRealtime } from './adapters/realtime';
import { createSms } from './adapters/sms';
import { encryptClearKyc } from './domains/trainers/encrypt-clear-kyc';
import { createSessionCache } from './platform/auth/session-cache';
import type { Config } from './platform/config';
import { privateDataDir } from './platform/data-dir';
import { openDatabase } from './platform/db/client';
import { isDatabaseUnavailable } from './platform/db/guarded-pglite';
import type { Deps } from './platform/deps';
import { demoAccountsOn } from './platform/exposure';
import { createFieldCipher } from './platform/field-cipher';
import { createAnswerCache } from './platform/http/answer-cache';
import { createLimits } from './platform/rate-limit';
import { SharedSecrets } from './platform/shared-secrets';
import { ensureAdmin, isEmpty, seedDemo } from './seed/demo';
import { seedDemoCourse } from './seed/demo-course';

/**
 * The composition root (the top floor, beside main.ts): it builds every engine once from the config
 * (mail, SMS, files, labs, meeting, payments, realtime, the clock) and hands them down through Deps,
 * one slot each; nothing below builds an engine of its own. It also runs the start-up data of seed/
 * and the domains.
 *
 * Opens the database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR), migrates, wires
 * adapters. Several instances may start at once on one PostgreSQL database: migrations take its
 * start-up lock (Database.exclusive).
 */
export async function createDeps(config: Config, databaseUrl?: string): Promise<Deps> {
  return openDeps(config, databaseUrl, { migrate: true });
}

/**
 * createDeps without the migrations: nothing here needs the database to answer yet (a PostgreSQL
 * pool connects on its first query), so the server can listen while it waits (prepareDatabase).
 */
export async function openDeps(config: Config, databaseUrl?: string, opts: { migrate?: boolean } = {}): Promise<Deps> {
  privateDataDir(config.DATA_DIR);
  const url = databaseUrl ?? config.DATABASE_URL ?? path.resolve(config.DATA_DIR, 'pglite');
  const database = await openDatabase(url, {
    pgliteWasmTierUp: config.PGLITE_WASM_TIER_UP,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  // before Redis is opened: a Redis that does not answer must not fail its commands during migrations
  const secrets = new SharedSecrets(config);
  if (opts.migrate) {
    await database.migrate();
    await secrets.load(database.db);
  }
  // rooms and presence: in-process alone, shared over Redis by several instances
  const realtime = createRealtime({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX });
  // several instances tell each other over Redis when sessions change; alone, nobody needs telling
  const bus = config.REDIS_URL ? realtime : null;
  const sessions = await createSessionCache({
    ttlMs: config.SESSION_CACHE_SECONDS * 1000,
    bus,
    onAccountWrite: database.onAccountWrite,
  });
  const answers = await createAnswerCache({
    ttlMs: config.ANSWER_CACHE_SECONDS * 1000,
    bus,
    onTableWrite: database.onTableWrite,
  });
  const closeCache = sessions.close;
  return {
    config,
    database,
    db: database.db,
    mail: createMailer(config, database.db),
    sms: createSms(config, database.db),
    files: createFileStore(config),
    labs: createLabProvider(config),
    clock: () => new Date(),
    meeting: createMeetingProvider(config),
    // a misconfigured gateway stops the start with a clear message
    payments: paymentGateway(config, secrets),
    realtime,
    limits: createLimits(config),
    cipher: createFieldCipher(config),
    secrets,
    answers,
    sessions: Object.assign(sessions, {
      close: async () => {
        await closeCache();
        await answers.close();
      },
    }),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.mail.close?.();
  await deps.sessions.close();
  await deps.realtime.close();
  await deps.labs.close?.();
  await deps.database.close();
}

/**
 * Start-up data: the demo data on an empty database (when demoAccountsOn: platform/exposure.ts) and
 * the ADMIN_EMAIL account. Runs under the database's start-up lock, so of several instances starting
 * together on one fresh database exactly one seeds. Answers whether this call seeded the demo data.
 */
export async function seedAtStart(deps: Deps): Promise<boolean> {
  const { config, db } = deps;
  const seedDemoData = demoAccountsOn(config);
  return deps.database.exclusive(async () => {
    let seeded = false;
    if (seedDemoData && (await isEmpty(db))) {
      await seedDemo(db, config.LAB_PROVIDER);
      // a playable recorded course when ffmpeg is there to make its video (skipped otherwise)
      await seedDemoCourse(deps).catch((e) =>
        console.warn(`The demo course video was not made: ${(e as Error).message}`),
      );
      seeded = true;
    }
    if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    return seeded;
  });
}

/** Wait before start-up attempt n+1 while the database does not answer: 1 s, doubling, at most 30 s. */
export const startupBackoffMs = (attempt: number): number => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * Migrations, the shared signing keys (platform/shared-secrets.ts), then the start-up data, tried
 * again with backoff for as long as the database does not answer (it may start after the servers, or
 * be restarting): a server waits for it instead of exiting.
 * Any other failure (a broken migration) is thrown.
 */
export async function prepareDatabase(
  deps: Deps,
  opts: { log: (message: string) => void; backoffMs?: (attempt: number) => number },
): Promise<{ seeded: boolean }> {
  const backoff = opts.backoffMs ?? startupBackoffMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.database.migrate();
      await encryptClearKyc(deps);
      await deps.secrets.load(deps.db);
      return { seeded: await seedAtStart(deps) };
    } catch (e) {
      if (!isDatabaseUnavailable(e)) throw e;
      const wait = backoff(attempt);
      opts.log(`the database does not answer (${rootMessage(e)}); trying again in ${wait / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The driver's own words, not drizzle's wrapper (which repeats the statement). */
const rootMessage = (e: unknown): string => {
  let err = e as { message?: string; cause?: unknown };
  while (err.cause && typeof err.cause === 'object') err = err.cause as typeof err;
  return err.message ?? String(e);
};
