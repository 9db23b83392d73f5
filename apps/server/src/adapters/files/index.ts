import path from 'node:path';
import type { Config } from '../../platform/config';
import { DiskFileStore } from './disk-store';
import type { FileStore } from './file-store';

export { DiskFileStore } from './disk-store';
export * from './file-store';

/**
 * The file store of this server: `${DATA_DIR}/files` on disk. An S3-compatible store would
 * implement the same FileStore interface (not built yet).
 */
export function createFileStore(config: Pick<Config, 'DATA_DIR'>): FileStore {
  return new DiskFileStore(path.join(config.DATA_DIR, 'files'));
}
