import type { ApiAnswer, ApiPath, ApiRequest, UploadFields } from './call-types';
import { ApiError, ERROR_CODE_HEADER } from './client';
import { getToken } from './session';

/**
 * A multipart upload with progress (fetch cannot report upload progress, XMLHttpRequest can).
 * Errors come back as the same ApiError as every other call. Typed by the path as apiPost is: the
 * parts are the call's request fields, the answer its response.
 */
export function apiUpload<P extends ApiPath>(
  path: P,
  fields: UploadFields<P>,
  onProgress?: (percent: number) => void,
): Promise<ApiAnswer<P>>;
export function apiUpload(
  path: string,
  fields: Record<string, string | Blob>,
  onProgress?: (percent: number) => void,
): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${path.replace(/^\//, '')}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body, xhr.getResponseHeader(ERROR_CODE_HEADER)));
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.send(data);
  });
}

/** Downloads a file answered by a POST call (templates, certificates) and saves it. */
export function apiDownload<P extends ApiPath>(path: P, body: ApiRequest<P>, filename: string): Promise<void>;
export async function apiDownload(path: string, body: unknown, filename: string): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`/api/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) {
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, parsed, res.headers.get(ERROR_CODE_HEADER));
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
