import type { Readable } from 'node:stream';

/** Where uploaded files live: a data folder on disk by default, S3-compatible storage in production. */
export interface FileStore {
  /** Writes (or replaces) the whole file; answers its size. */
  put(key: string, data: Buffer | Readable): Promise<number>;
  /** Appends to the file (created when missing); answers the new size. */
  append(key: string, data: Buffer): Promise<number>;
  /** The file's bytes, or an inclusive byte range of them. Throws FileNotFound when missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of the file, or null when it does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the file; no error when missing. */
  delete(key: string): Promise<void>;
  /**
   * Engines that can hand out their own short-lived GET URLs (S3 presigned URLs) have this; on disk
   * the server serves files itself through its signed routes.
   */
  signedUrl?(key: string, expiresSeconds: number, contentType?: string): Promise<string>;
}

/** Inclusive byte offsets, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export class FileNotFound extends Error {
  constructor(key: string) {
    super(`file not found: ${key}`);
  }
}

export class UnsafeKey extends Error {
  constructor(key: string) {
    super(`unsafe file key: ${JSON.stringify(key)}`);
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * Keys are relative paths of plain segments (letters, digits, `.`, `_`, `-`; not starting with a
 * dot), so no key can climb out of the store: no `..`, no absolute paths, no backslashes.
 */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 400) throw new UnsafeKey(String(key));
  const segments = key.split('/');
  if (!segments.every((s) => SEGMENT.test(s))) throw new UnsafeKey(key);
}
