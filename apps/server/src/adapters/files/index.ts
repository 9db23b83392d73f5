import path from 'node:path';
import type { Config } from '../../platform/config';
import { DiskFileStore } from './disk-store';
import type { FileStore } from './file-store';
import { S3FileStore } from './s3-store';

export { DiskFileStore } from './disk-store';
export * from './file-store';
export { S3FileStore } from './s3-store';

type StoreConfig = Pick<
  Config,
  | 'DATA_DIR'
  | 'FILE_STORE'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_BUCKET'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

const s3Stores = new Map<string, S3FileStore>();

/**
 * The file store of this server: `${DATA_DIR}/files` on disk (the default), or an S3 bucket with
 * FILE_STORE=s3. One S3 client per configuration, shared by every caller (it keeps connections).
 */
export function createFileStore(config: StoreConfig): FileStore {
  if (config.FILE_STORE !== 's3') return new DiskFileStore(path.join(config.DATA_DIR, 'files'));
  const opts = {
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET ?? '',
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
  const id = JSON.stringify(opts);
  let store = s3Stores.get(id);
  if (!store) {
    store = new S3FileStore(opts);
    s3Stores.set(id, store);
  }
  return store;
}
