import path from 'node:path';
import { createMailer } from '../adapters/mail';
import type { Config } from './config';
import { openDatabase } from './db/client';
import type { Deps } from './deps';
import { createLimits } from './rate-limit';

/** Opens the database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR), migrates, wires adapters. */
export async function createDeps(config: Config, databaseUrl?: string): Promise<Deps> {
  const url = databaseUrl ?? config.DATABASE_URL ?? path.resolve(config.DATA_DIR, 'pglite');
  const database = await openDatabase(url);
  await database.migrate();
  return {
    config,
    database,
    db: database.db,
    mail: createMailer(config, database.db),
    limits: createLimits(config),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.mail.close?.();
  await deps.database.close();
}
