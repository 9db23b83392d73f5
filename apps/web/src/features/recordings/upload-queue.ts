import type { ApiAnswer } from '../../api/call-types';
import { ApiError } from '../../api/client';

/** Sends one chunk of a recording (apiUpload at run time; tests give their own). */
export type Uploader = (
  path: 'recording-chunk',
  fields: { id: string; index: string; file: Blob },
) => Promise<ApiAnswer<'recording-chunk'>>;

/**
 * Uploads a recording's chunks strictly in order, one at a time, in the background. A chunk larger
 * than the server's chunk size is split. A failed chunk is retried (network errors, 5xx) before the
 * queue gives up; the server acknowledges a repeated index without storing it twice.
 */
export class UploadQueue {
  private pending: Blob[] = [];
  private running: Promise<void> | null = null;
  private nextIndex = 0;
  recorded = 0;
  uploaded = 0;
  error: unknown = null;

  constructor(
    private readonly id: number,
    private readonly chunkSize: number,
    private readonly upload: Uploader,
    private readonly onChange: () => void,
    private readonly retryDelayMs = 1000,
  ) {}

  push(blob: Blob): void {
    if (blob.size === 0 || this.error) return;
    this.recorded += blob.size;
    for (let offset = 0; offset < blob.size; offset += this.chunkSize) {
      this.pending.push(blob.slice(offset, Math.min(offset + this.chunkSize, blob.size), blob.type));
    }
    this.onChange();
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when every pushed chunk is stored; rejects with the error that stopped the queue. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.error) throw this.error;
  }

  private async drain(): Promise<void> {
    while (this.pending.length && !this.error) {
      const blob = this.pending[0]!;
      try {
        await this.send(blob);
        this.pending.shift();
        this.uploaded += blob.size;
        this.onChange();
      } catch (e) {
        this.error = e;
        this.onChange();
      }
    }
  }

  private async send(blob: Blob): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.upload('recording-chunk', {
          id: String(this.id),
          index: String(this.nextIndex),
          file: blob,
        });
        this.nextIndex = res?.next_index ?? this.nextIndex + 1;
        return;
      } catch (e) {
        const retriable = e instanceof ApiError && (e.status === 0 || e.status >= 500);
        if (!retriable || attempt >= 3) throw e;
        await new Promise((r) => setTimeout(r, this.retryDelayMs * attempt));
      }
    }
  }
}
