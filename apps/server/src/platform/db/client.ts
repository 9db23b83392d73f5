import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from '../../db/schema';

export type Schema = typeof schema;
/** PGlite and node-postgres share drizzle's PgDatabase surface; code depends only on that. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

function migrationsFolder(): string {
  // Works from src/ (tsx, vitest) and from the bundled dist/main.js alike.
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../../drizzle'), path.resolve(here, '../drizzle')];
  return process.env.MIGRATIONS_DIR ?? candidates.find((c) => existsSync(path.join(c, 'meta'))) ?? candidates[0]!;
}

/** `url` is a postgres:// URL, `memory://` for a throwaway PGlite, or a folder for a durable PGlite. */
export async function openDatabase(url: string): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client whose connection the server ended (restart, failover) must not crash the
    // process: the pool drops it and the next query opens a new one.
    pool.on('error', (err) => {
      console.warn(`database connection lost: ${err.message}`);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db as never, { migrationsFolder: migrationsFolder() }),
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  if (url !== 'memory://') mkdirSync(url, { recursive: true });
  const client = url === 'memory://' ? new PGlite() : new PGlite(url);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}
