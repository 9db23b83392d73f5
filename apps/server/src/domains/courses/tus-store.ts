import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { and, eq, lt } from 'drizzle-orm';
import { courseUploads } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { FileStore } from '../../platform/ports/files';

/** How long an unfinished or unused upload is kept before the expiry job removes it. */
export const UPLOAD_TTL_MS = 24 * 3600_000;
/**
 * Bytes gathered before one append to the file store. Large enough that an S3 append (a
 * server-side multipart copy, whose parts must be at least 5 MiB) stays cheap; small enough for memory.
 */
export const APPEND_PIECE_BYTES = 8 * 1024 * 1024;

export const uploadKey = (id: string) => `course-uploads/${id}`;

/**
 * The tus DataStore of course videos on top of our FileStore, so partial uploads live where every
 * other stored file lives (disk or S3). The upload's record (owner, declared size, metadata, expiry)
 * is a `course_uploads` row; the offset is the size of the stored file, so a write cut off half-way
 * resumes from exactly the bytes that were stored.
 */
export class FileStoreTusStore extends DataStore {
  constructor(
    private readonly deps: Pick<Deps, 'db'>,
    private readonly files: FileStore,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  /** The row is written by the route before tus creates the upload (it knows the owner). */
  override async create(upload: Upload): Promise<Upload> {
    const [row] = await this.deps.db.select().from(courseUploads).where(eq(courseUploads.id, upload.id)).limit(1);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    await this.deps.db
      .update(courseUploads)
      .set({ metadata: upload.metadata ?? {}, size: upload.size ?? 0 })
      .where(eq(courseUploads.id, upload.id));
    await this.files.put(row.key, Buffer.alloc(0));
    upload.creation_date = row.created_at.toISOString();
    return upload;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const key = uploadKey(id);
    let size = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!pendingBytes) return;
      const piece = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      size = await this.files.append(key, piece);
    };
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        pending.push(buf);
        pendingBytes += buf.length;
        if (pendingBytes >= APPEND_PIECE_BYTES) await flush();
      }
    } finally {
      // what arrived before a dropped connection is kept: the client resumes after it
      await flush();
    }
    return size;
  }

  override async getUpload(id: string): Promise<Upload> {
    const [row] = await this.deps.db.select().from(courseUploads).where(eq(courseUploads.id, id)).limit(1);
    const stored = row ? await this.files.stat(row.key) : null;
    if (!row || !stored) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({
      id,
      size: row.size,
      offset: stored.size,
      metadata: row.metadata,
      creation_date: row.created_at.toISOString(),
      storage: { type: 'file-store', path: row.key },
    });
  }

  override async remove(id: string): Promise<void> {
    const [row] = await this.deps.db.delete(courseUploads).where(eq(courseUploads.id, id)).returning();
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    await this.files.delete(row.key);
  }

  override getExpiration(): number {
    return UPLOAD_TTL_MS;
  }

  /** Removes every upload past its expiry (finished or not) with its bytes; answers how many. */
  override async deleteExpired(): Promise<number> {
    const gone = await this.deps.db
      .delete(courseUploads)
      .where(and(lt(courseUploads.expires_at, new Date())))
      .returning();
    for (const row of gone) await this.files.delete(row.key);
    return gone.length;
  }
}
