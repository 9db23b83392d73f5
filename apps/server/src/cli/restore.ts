import 'dotenv/config';
import path from 'node:path';
import { restoreBackup } from '../platform/backup';
import { loadConfig } from '../platform/config';

/**
 * npm run restore -- ARCHIVE: brings a fresh DATA_DIR (embedded database) or an empty PostgreSQL
 * database (DATABASE_URL) and an empty file store back to the archive. Never overwrites data.
 */
async function main() {
  const archive = process.argv[2];
  if (!archive) {
    console.error('Usage: npm run restore -- ARCHIVE');
    process.exit(1);
  }
  const config = loadConfig();
  const manifest = await restoreBackup(path.resolve(archive), {
    databaseUrl: config.DATABASE_URL ?? path.resolve(config.DATA_DIR, 'pglite'),
    filesDir: path.join(config.DATA_DIR, 'files'),
  });
  console.log(
    `Restored the ${manifest.kind} backup of ${manifest.created_at}. Start the server to run newer migrations.`,
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
