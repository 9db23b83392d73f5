import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './db/client';

/**
 * Backups: one .tar.gz holding manifest.json, the database (PGlite's own dump of its data folder, or
 * pg_dump's custom format on PostgreSQL) and the file store (files/). The database is copied first:
 * every file a copied row names already exists then (stored files are written whole, then renamed).
 */
const run = promisify(execFile);
const MAX_OUTPUT = 64 * 1024 * 1024;

export interface BackupSource {
  /** the open database: PGlite is dumped through it, PostgreSQL by pg_dump on `databaseUrl` */
  database: Pick<Database, 'kind' | 'dumpDataDir'>;
  databaseUrl?: string;
  /** the file store's folder (`${DATA_DIR}/files`) */
  filesDir: string;
}

export interface Manifest {
  format: 1;
  kind: 'pglite' | 'postgres';
  created_at: string;
}

async function copyFiles(from: string, to: string): Promise<void> {
  if (!existsSync(from)) return mkdir(to, { recursive: true }).then(() => undefined);
  // a file being written is a .part until it is renamed: not part of any row yet
  await cp(from, to, { recursive: true, filter: (src) => !src.endsWith('.part') });
}

/** Writes the archive to `out` (a .tar.gz path) while the database keeps serving. */
export async function createBackup(source: BackupSource, out: string): Promise<Manifest> {
  const staging = await mkdtemp(path.join(tmpdir(), 'trainlab-backup-'));
  try {
    const kind = source.database.kind;
    if (kind === 'postgres') {
      if (!source.databaseUrl) throw new Error('a PostgreSQL backup needs the database URL');
      // one snapshot of the whole database: pg_dump runs in a single repeatable-read transaction
      await run(
        'pg_dump',
        [
          '--format=custom',
          '--no-owner',
          '--no-acl',
          '--file',
          path.join(staging, 'database.dump'),
          '--dbname',
          source.databaseUrl,
        ],
        {
          maxBuffer: MAX_OUTPUT,
        },
      );
    } else {
      if (!source.database.dumpDataDir) throw new Error('this database cannot dump its data folder');
      const dump = await source.database.dumpDataDir();
      await writeFile(path.join(staging, 'pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
    }
    await copyFiles(source.filesDir, path.join(staging, 'files'));
    const manifest: Manifest = { format: 1, kind, created_at: new Date().toISOString() };
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    await run('tar', ['-czf', path.resolve(out), '-C', staging, '.'], { maxBuffer: MAX_OUTPUT });
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export interface RestoreTarget {
  /** a postgres:// URL of an empty database, or a PGlite folder that does not exist yet (or is empty) */
  databaseUrl: string;
  filesDir: string;
}

async function isEmptyDir(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

async function postgresIsEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  // a connection ended under the check fails its query; unheard, the client's 'error' would end the process
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

export class RestoreRefused extends Error {}

/** Brings an empty database and file store back to the archive. Refuses to overwrite anything. */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<Manifest> {
  const staging = await mkdtemp(path.join(tmpdir(), 'trainlab-restore-'));
  try {
    await run('tar', ['-xzf', path.resolve(archive), '-C', staging], { maxBuffer: MAX_OUTPUT });
    const manifest = JSON.parse(await readFile(path.join(staging, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.format !== 1) throw new RestoreRefused(`unknown backup format ${manifest.format}`);
    const toPostgres = /^postgres(ql)?:\/\//.test(target.databaseUrl);
    if (toPostgres !== (manifest.kind === 'postgres')) {
      throw new RestoreRefused(`this archive holds a ${manifest.kind} database; restore it to the same kind`);
    }
    if (!(await isEmptyDir(target.filesDir))) throw new RestoreRefused(`${target.filesDir} is not empty`);
    if (toPostgres) {
      if (!(await postgresIsEmpty(target.databaseUrl))) throw new RestoreRefused('the target database is not empty');
      await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-acl',
          '--exit-on-error',
          '--single-transaction',
          '--dbname',
          target.databaseUrl,
          path.join(staging, 'database.dump'),
        ],
        { maxBuffer: MAX_OUTPUT },
      );
    } else {
      if (!(await isEmptyDir(target.databaseUrl))) throw new RestoreRefused(`${target.databaseUrl} is not empty`);
      const dump = await readFile(path.join(staging, 'pglite.tar.gz'));
      await mkdir(target.databaseUrl, { recursive: true });
      const db = new PGlite(target.databaseUrl, { loadDataDir: new Blob([dump]) });
      await db.waitReady;
      await db.close();
    }
    await copyFiles(path.join(staging, 'files'), target.filesDir);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
