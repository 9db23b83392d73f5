import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ByteRange, FileNotFound, type FileStore, UnsafeKey } from '../../platform/ports/files';

/**
 * Files under one folder (`${DATA_DIR}/files`), one file per key: 0600 in 0700 folders, whatever the
 * process's umask, so no other account on the host reads a course's video or a trainer's KYC image.
 */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export class DiskFileStore implements FileStore {
  readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(this.root, key);
    // belt and braces: the key rules already keep every path inside the root
    if (!full.startsWith(this.root + path.sep)) throw new UnsafeKey(key);
    return full;
  }

  async put(key: string, data: Buffer | Readable): Promise<number> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true, mode: DIR_MODE });
    const tmp = `${file}.part`;
    await pipeline(Buffer.isBuffer(data) ? [data] : data, createWriteStream(tmp, { mode: FILE_MODE }));
    await rename(tmp, file);
    return (await stat(file)).size;
  }

  async append(key: string, data: Buffer): Promise<number> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true, mode: DIR_MODE });
    await appendFile(file, data, { mode: FILE_MODE });
    return (await stat(file)).size;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.file(key);
    if (!(await this.stat(key))) throw new FileNotFound(key);
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.file(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}
