import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../platform/config';
import type { ByteRange, FileStore } from '../../platform/ports/files';
import { DiskFileStore } from './disk-store';
import type { S3FileStore, S3Options } from './s3-store';

export * from '../../platform/ports/files';
export { DiskFileStore } from './disk-store';

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

/**
 * The file store of this server: `${DATA_DIR}/files` on disk (the default), or an S3 bucket with
 * FILE_STORE=s3, built once by the composition root (Deps.files), so one S3 client keeps its
 * connections for every caller; the AWS SDK loads with the first file call, never on a server that keeps its files on disk.
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
  return lazyS3Store(opts);
}

function lazyS3Store(opts: S3Options): FileStore {
  let store: Promise<S3FileStore> | undefined;
  const use = () => {
    store ??= import('./s3-store').then((m) => new m.S3FileStore(opts));
    return store;
  };
  return {
    put: async (key: string, data: Buffer | Readable) => (await use()).put(key, data),
    append: async (key: string, data: Buffer) => (await use()).append(key, data),
    read: async (key: string, range?: ByteRange) => (await use()).read(key, range),
    stat: async (key: string) => (await use()).stat(key),
    delete: async (key: string) => (await use()).delete(key),
    signedUrl: async (key: string, expiresSeconds: number, contentType?: string) =>
      (await use()).signedUrl(key, expiresSeconds, contentType),
  };
}
