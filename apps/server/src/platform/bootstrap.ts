import path from 'node:path';
import { createMailer } from '../adapters/mail';
import { createRealtime } from '../adapters/realtime';
import { ensureAdmin, isEmpty, seedDemo } from '../seed/demo';
import { seedDemoCourse } from '../seed/demo-course';
import { createSessionCache } from './auth/session-cache';
import type { Config } from './config';
import { openDatabase } from './db/client';
import type { Deps } from './deps';
import { createFieldCipher } from './field-cipher';
import { createLimits } from './rate-limit';

/**
 * Opens the database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR), migrates, wires
 * adapters. Several instances may start at once on one PostgreSQL database: migrations take its
 * start-up lock (Database.exclusive).
 */
export async function createDeps(config: Config, databaseUrl?: string): Promise<Deps> {
  const url = databaseUrl ?? config.DATABASE_URL ?? path.resolve(config.DATA_DIR, 'pglite');
  const database = await openDatabase(url);
  await database.migrate();
  // several instances tell each other over Redis when sessions change; alone, nobody needs telling
  const bus = config.REDIS_URL ? createRealtime({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX }) : null;
  const sessions = await createSessionCache({
    ttlMs: config.SESSION_CACHE_SECONDS * 1000,
    bus,
    onAccountWrite: database.onAccountWrite,
  });
  const closeCache = sessions.close;
  return {
    config,
    database,
    db: database.db,
    mail: createMailer(config, database.db),
    limits: createLimits(config),
    cipher: createFieldCipher(config),
    sessions: Object.assign(sessions, {
      close: async () => {
        await closeCache();
        await bus?.close();
      },
    }),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.mail.close?.();
  await deps.sessions.close();
  await deps.database.close();
}

/**
 * Start-up data: the demo data on an empty database (outside production, unless SEED_DEMO=false) and
 * the ADMIN_EMAIL account. Runs under the database's start-up lock, so of several instances starting
 * together on one fresh database exactly one seeds. Answers whether this call seeded the demo data.
 */
export async function seedAtStart(deps: Deps): Promise<boolean> {
  const { config, db } = deps;
  const seedDemoData = config.NODE_ENV !== 'production' && (config.SEED_DEMO ?? true);
  return deps.database.exclusive(async () => {
    let seeded = false;
    if (seedDemoData && (await isEmpty(db))) {
      await seedDemo(db);
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
