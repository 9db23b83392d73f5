import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, type ByteRange, FileNotFound, type FileStore } from '../../platform/ports/files';

export interface S3Options {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** S3's smallest part of a multipart upload (all but the last part). */
export const S3_MIN_PART = 5 * 1024 * 1024;
/** Parts we upload when streaming a file of unknown length. */
const PART_BYTES = 8 * 1024 * 1024;

const notFoundError = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};
const notImplemented = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NotImplemented' || err.$metadata?.httpStatusCode === 501;
};

/**
 * Files as objects of one S3 bucket (AWS or any S3-compatible server), one object per key.
 * Streams of unknown length go up as multipart uploads in 8 MiB parts, so a 2 GB video never sits
 * in memory. S3 has no append: see `append`.
 */
export class S3FileStore implements FileStore {
  readonly client: S3Client;
  readonly bucket: string;
  constructor(opts: S3Options) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
      // checksums on every PUT are not understood by every S3-compatible server
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, data: Buffer | Readable): Promise<number> {
    assertSafeKey(key);
    if (Buffer.isBuffer(data)) {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data }));
      return data.length;
    }
    return this.putStream(key, data);
  }

  /** A stream: one PUT when it turns out smaller than a part, else a multipart upload. */
  private async putStream(key: string, data: Readable, firstParts: { copyBytes?: number } = {}): Promise<number> {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    let uploadId: string | null = null;
    const parts: { ETag: string; PartNumber: number }[] = [];
    const start = async () => {
      const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
      uploadId = created.UploadId!;
      if (firstParts.copyBytes) {
        // the object as it is, copied inside S3 as part 1 (append)
        const copied = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: 1,
            CopySource: `${this.bucket}/${encodeURIComponent(key).replace(/%2F/g, '/')}`,
          }),
        );
        parts.push({ ETag: copied.CopyPartResult?.ETag ?? '', PartNumber: 1 });
        total += firstParts.copyBytes;
      }
    };
    const sendPart = async () => {
      const body = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (!uploadId) await start();
      const PartNumber = parts.length + 1;
      const res = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId!, PartNumber, Body: body }),
      );
      parts.push({ ETag: res.ETag!, PartNumber });
      total += body.length;
    };
    try {
      if (firstParts.copyBytes) await start();
      for await (const chunk of data) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        pending.push(buf);
        pendingBytes += buf.length;
        if (pendingBytes >= PART_BYTES) await sendPart();
      }
      if (!uploadId) {
        const body = Buffer.concat(pending, pendingBytes);
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
        return body.length;
      }
      if (pendingBytes || !parts.length) await sendPart();
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
      return total;
    } catch (e) {
      if (uploadId) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw e;
    }
  }

  /**
   * S3 objects cannot grow. An object of at least 5 MiB grows by a multipart upload whose first part
   * is the object itself copied inside S3 (UploadPartCopy: no bytes pass through us) and whose second
   * part is the new data. A smaller object, or a server without UploadPartCopy, is read and written
   * again with the new data (cheap below 5 MiB; a full rewrite on such servers).
   */
  async append(key: string, data: Buffer): Promise<number> {
    assertSafeKey(key);
    const current = await this.stat(key);
    if (!current) return this.put(key, data);
    if (current.size >= S3_MIN_PART) {
      try {
        return await this.putStream(key, Readable.from([data]), { copyBytes: current.size });
      } catch (e) {
        if (!notImplemented(e)) throw e;
      }
    }
    const existing = await this.read(key);
    return this.putStream(
      key,
      Readable.from(
        (async function* () {
          for await (const chunk of existing) yield chunk as Buffer;
          yield data;
        })(),
      ),
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = res.Body as Readable;
      if (!range) return body;
      // a server that ignored or widened the range (some S3-compatible ones do for `bytes=0-0`):
      // cut the asked range out of what came
      const answered = /^bytes (\d+)-(\d+)\//.exec(res.ContentRange ?? '');
      const from = answered ? Number(answered[1]) : 0;
      if (answered && from === range.start && Number(answered[2]) === range.end) return body;
      return sliceStream(body, range, from);
    } catch (e) {
      if (notFoundError(e)) throw new FileNotFound(key);
      throw e;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(res.ContentLength ?? 0) };
    } catch (e) {
      if (notFoundError(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A short-lived GET URL of the object straight from S3 (the player's segments and posters). */
  async signedUrl(key: string, expiresSeconds: number, contentType?: string): Promise<string> {
    assertSafeKey(key);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentType: contentType }),
      { expiresIn: expiresSeconds },
    );
  }
}

/** The inclusive byte range out of a stream that starts at byte `sourceStart` of the object. */
function sliceStream(source: Readable, range: ByteRange, sourceStart: number): Readable {
  return Readable.from(
    (async function* () {
      let at = sourceStart;
      for await (const chunk of source) {
        const buf = chunk as Buffer;
        const from = Math.max(range.start - at, 0);
        const to = Math.min(range.end + 1 - at, buf.length);
        if (to > from) yield buf.subarray(from, to);
        at += buf.length;
        if (at > range.end) break;
      }
    })(),
  );
}
