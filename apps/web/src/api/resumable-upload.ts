import { COURSE_UPLOAD_PATH } from '@trainlab/contract';
import { type DetailedError, Upload } from 'tus-js-client';
import { ApiError, ERROR_CODE_HEADER } from './client';
import { getToken } from './session';

/** Each PATCH carries at most this much, so a dropped connection costs one piece, not the whole file. */
export const VIDEO_CHUNK_BYTES = 8 * 1024 * 1024;
/** Waits before each retry after a dropped connection (then the upload reports the error). */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];

/**
 * Uploads a course video with the tus protocol to /api/course-uploads and answers the finished
 * upload's id. The file's fingerprint (name, type, size, date) is remembered in localStorage, so
 * choosing the same file again after a reload resumes where the previous attempt stopped; a dropped
 * connection is retried by itself from the server's offset. Refusals (not a video, too large) come back
 * as the same ApiError as every other call.
 */
export function uploadVideo(
  file: File,
  onProgress: (percent: number) => void,
  opts: { retryDelays?: number[] } = {},
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const token = getToken();
    const upload = new Upload(file, {
      endpoint: `/api/${COURSE_UPLOAD_PATH}`,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      metadata: { filename: file.name, filetype: file.type },
      chunkSize: VIDEO_CHUNK_BYTES,
      retryDelays: opts.retryDelays ?? RETRY_DELAYS,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total ? Math.floor((sent / total) * 100) : 0),
      onSuccess: () => {
        const id = (upload.url ?? '').split('/').pop() ?? '';
        if (id) resolve(id);
        else reject(new ApiError(0, null));
      },
      onError: (err) => reject(toApiError(err)),
    });
    upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (last) upload.resumeFromPreviousUpload(last);
        upload.start();
      })
      .catch(() => upload.start());
  });
}

function toApiError(err: Error | DetailedError): ApiError {
  const res = (err as DetailedError).originalResponse;
  if (!res) return new ApiError(0, null);
  const text = res.getBody();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // a plain-text tus error (e.g. 'Maximum size exceeded')
    body = { message: text };
  }
  return new ApiError(res.getStatus(), body, res.getHeader(ERROR_CODE_HEADER) ?? null);
}
