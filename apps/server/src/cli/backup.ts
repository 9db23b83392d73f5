import 'dotenv/config';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_TOKEN_FILE } from '../domains/system/backup-route';
import { createBackup } from '../platform/backup';
import { loadConfig } from '../platform/config';
import { openDatabase } from '../platform/db/client';

/**
 * npm run backup [-- ARCHIVE]: one .tar.gz of the database and the file store (docs/operations.md).
 * PostgreSQL: pg_dump, while servers keep running. Embedded database: the running server writes it
 * (its folder is open in that process); when no server runs, it is read here.
 */
async function main() {
  const config = loadConfig();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = path.resolve(process.argv[2] ?? path.join(config.DATA_DIR, 'backups', `trainlab-${stamp}.tar.gz`));
  const filesDir = path.join(config.DATA_DIR, 'files');
  if (config.DATABASE_URL) {
    await createBackup({ database: { kind: 'postgres' }, databaseUrl: config.DATABASE_URL, filesDir }, out);
  } else if (!(await fromRunningServer(config.DATA_DIR, config.PORT, out))) {
    const database = await openDatabase(path.resolve(config.DATA_DIR, 'pglite'));
    try {
      await createBackup({ database, filesDir }, out);
    } finally {
      await database.close();
    }
  }
  console.log(`Backup written: ${out}`);
}

async function fromRunningServer(dataDir: string, port: number, out: string): Promise<boolean> {
  let token: string;
  try {
    token = readFileSync(path.join(dataDir, BACKUP_TOKEN_FILE), 'utf8').trim();
  } catch {
    return false;
  }
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/internal/backup`, {
      method: 'POST',
      headers: { 'x-backup-token': token },
    });
  } catch {
    return false; // no server answers: the folder is free to open here
  }
  if (!res.ok) throw new Error(`the running server refused the backup (${res.status})`);
  await writeFile(out, Buffer.from(await res.arrayBuffer()));
  return true;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
