import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskFileStore } from '../src/adapters/files';
import { closeDeps, createDeps } from '../src/bootstrap';
import { organizations, outbox, trainings, users } from '../src/db/schema';
import { createBackup, RestoreRefused, restoreBackup } from '../src/platform/backup';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/platform/db/client';
import type { Deps } from '../src/platform/deps';
import { freshDatabaseUrl } from './helpers';

/**
 * Runs on PGlite by default and on PostgreSQL when TEST_DATABASE_URL is set (pg_dump/pg_restore,
 * Debian package postgresql-client): the round trip is the same.
 */
const work = mkdtempSync(path.join(tmpdir(), 'tl-backup-'));
let deps: Deps;
let sourceUrl: string;
const drops: (() => Promise<void>)[] = [];
const files = new DiskFileStore(path.join(work, 'source-files'));

/** Where a restore may go: a new PGlite folder, or a new empty PostgreSQL database. */
async function emptyTarget(name: string): Promise<string> {
  if (!process.env.TEST_DATABASE_URL) return path.join(work, `${name}-pglite`);
  const fresh = await freshDatabaseUrl();
  drops.push(fresh.drop);
  return fresh.url;
}

async function snapshot(url: string) {
  const db = await openDatabase(url);
  try {
    return {
      users: await db.db.select().from(users).orderBy(asc(users.id)),
      organizations: await db.db.select().from(organizations).orderBy(asc(organizations.id)),
      trainings: await db.db.select().from(trainings).orderBy(asc(trainings.id)),
      outbox: await db.db.select().from(outbox).orderBy(asc(outbox.id)),
    };
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drops.push(fresh.drop);
  // a durable PGlite folder (the embedded default), or the fresh PostgreSQL database
  sourceUrl = process.env.TEST_DATABASE_URL ? fresh.url : path.join(work, 'source-pglite');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: work });
  deps = await createDeps(config, sourceUrl);
  const [org] = await deps.db
    .insert(organizations)
    .values({ slug: 'acme-1', name: 'Acme', email: 'acme@example.test' })
    .returning();
  await deps.db.insert(users).values({
    slug: 'asha-1',
    first_name: 'Asha',
    last_name: 'Backup',
    email: 'asha@example.test',
    password_hash: 'x',
    roles: ['organization'],
    user_type: 6,
    organization_id: org!.id,
  });
  await files.put('videos/a/intro.mp4', randomBytes(300_000));
  await files.put('certificates/c1.pdf', Buffer.from('%PDF-1.7 certificate'));
  await files.put('videos/a/half-written.mp4.part', Buffer.from('not yet a file'));
}, 60_000);

afterAll(async () => {
  await closeDeps(deps);
  for (const drop of drops) await drop();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run backup / npm run restore', () => {
  it('a round trip: the data and the stored files are equal after restore', async () => {
    const archive = path.join(work, 'one.tar.gz');
    const manifest = await createBackup(
      { database: deps.database, databaseUrl: sourceUrl, filesDir: files.root },
      archive,
    );
    expect(manifest.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

    const target = await emptyTarget('one');
    const restoredFiles = path.join(work, 'one-files');
    await restoreBackup(archive, { databaseUrl: target, filesDir: restoredFiles });

    expect(await snapshot(target)).toEqual(await snapshot(sourceUrl));
    const copy = new DiskFileStore(restoredFiles);
    for (const key of ['videos/a/intro.mp4', 'certificates/c1.pdf']) {
      expect(await readFile(path.join(copy.root, key))).toEqual(await readFile(path.join(files.root, key)));
    }
    // a half-written upload is not part of the backup
    expect(await copy.stat('videos/a/half-written.mp4.part')).toBeNull();
    // the restored database migrates as a no-op and serves
    const reopened = await openDatabase(target);
    await reopened.migrate();
    await reopened.close();
  });

  it('a backup taken while writes run restores to a consistent state: every row of a prefix, nothing torn', async () => {
    let stop = false;
    let written = 0;
    const loop = (async () => {
      while (!stop) {
        await deps.db
          .insert(outbox)
          .values({ channel: 'mail', to: `n${written}@example.test`, text: `message ${written}` });
        written++;
        // as requests do: let other work run between writes (PGlite answers without real I/O)
        await new Promise((r) => setImmediate(r));
      }
    })();
    while (written < 20) await new Promise((r) => setTimeout(r, 5));
    const archive = path.join(work, 'busy.tar.gz');
    await createBackup({ database: deps.database, databaseUrl: sourceUrl, filesDir: files.root }, archive);
    const atEnd = written;
    stop = true;
    await loop;

    const target = await emptyTarget('busy');
    await restoreBackup(archive, { databaseUrl: target, filesDir: path.join(work, 'busy-files') });
    const restored = (await snapshot(target)).outbox;
    expect(restored.length).toBeGreaterThanOrEqual(20);
    expect(restored.length).toBeLessThanOrEqual(atEnd + 1);
    // the writes were one after another: a consistent copy holds exactly the first n of them
    expect(restored.map((r) => r.text)).toEqual(restored.map((_r, i) => `message ${i}`));
  });

  it('refuses to restore over data', async () => {
    const archive = path.join(work, 'one.tar.gz');
    // the source database and file store are not empty
    await expect(
      restoreBackup(archive, { databaseUrl: sourceUrl, filesDir: path.join(work, 'x-files') }),
    ).rejects.toThrow(RestoreRefused);
    await expect(restoreBackup(archive, { databaseUrl: await emptyTarget('x'), filesDir: files.root })).rejects.toThrow(
      RestoreRefused,
    );
  });
});
