import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps, createDeps, seedAtStart } from '../src/bootstrap';
import { courseTopics, users } from '../src/db/schema';
import { loadConfig } from '../src/platform/config';
import type { Deps } from '../src/platform/deps';
import { DEMO_ACCOUNTS } from '../src/seed/demo';
import { freshDatabaseUrl } from './helpers';

// Several server instances start at once on one fresh database (a cluster behind one address, or
// the two-instance journeys): migrations and the demo seed must each happen exactly once. On
// PostgreSQL each instance here has its own connection pool, as separate processes have; on PGlite
// (one process owns the database) the start-ups share one instance and queue inside it.
const INSTANCES = 3;
const config = loadConfig({
  NODE_ENV: 'development',
  LOG_LEVEL: 'silent',
  // the demo course's video goes to the file store: a folder of this test's own
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tl-startup-')),
  ADMIN_EMAIL: 'root@startup.test',
  ADMIN_PASSWORD: 'Root@12345',
});
const journal = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../drizzle/meta/_journal.json'), 'utf8'));

let drop: () => Promise<void>;
let instances: Deps[];

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  if (fresh.url === 'memory://') {
    const one = await createDeps(config, fresh.url);
    instances = Array.from({ length: INSTANCES }, () => one);
  } else {
    // all at once, like processes started together: each migrates on its own pool
    instances = await Promise.all(Array.from({ length: INSTANCES }, () => createDeps(config, fresh.url)));
  }
});
afterAll(async () => {
  for (const deps of new Set(instances)) await closeDeps(deps);
  await drop();
});

describe('instances starting together on one database', () => {
  it('apply each migration once', async () => {
    const [row] = await instances[0]!.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`drizzle.__drizzle_migrations`);
    expect(row?.n).toBe(journal.entries.length);
  });

  it('seed the demo data and the admin account exactly once', async () => {
    const seeded = await Promise.all(instances.map((deps) => seedAtStart(deps)));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const [row] = await instances[0]!.db.select({ n: count() }).from(users);
    expect(row?.n).toBe(DEMO_ACCOUNTS.length + 1);
    // the demo course's topic (its video made with ffmpeg) once, not once per instance
    const topics = await instances[0]!.db.select({ n: count() }).from(courseTopics);
    expect(topics[0]?.n).toBe(1);
    // a later start (a restart, a third instance) finds the data and seeds nothing
    expect(await seedAtStart(instances[1]!)).toBe(false);
  });

  it('hold the start-up lock one at a time', async () => {
    const events: string[] = [];
    let entered!: () => void;
    const aInside = new Promise<void>((r) => {
      entered = r;
    });
    const first = instances[0]!.database.exclusive(async () => {
      events.push('a in');
      entered();
      await new Promise((r) => setTimeout(r, 200));
      events.push('a out');
    });
    await aInside;
    const second = instances[1]!.database.exclusive(async () => {
      events.push('b in');
      events.push('b out');
    });
    await Promise.all([first, second]);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    // a failing holder releases the lock too
    await expect(
      instances[0]!.database.exclusive(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await instances[1]!.database.exclusive(async () => 'free')).toBe('free');
  });
});
