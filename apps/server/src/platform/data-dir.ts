import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The data folder holds the embedded database, every stored file and the field-encryption key: it is
 * made (or kept) 0700, so no other account on the host lists or reads it. Files inside are created
 * 0600 (the file store says so, and the server's umask is 077 for whatever else writes there).
 */
export function privateDataDir(dataDir: string): string {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}
