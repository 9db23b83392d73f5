import { ApiError, ERROR_CODE_HEADER } from './client';
import { getToken } from './session';

/**
 * A multipart upload with progress (fetch cannot report upload progress, XMLHttpRequest can).
 * Errors come back as the same ApiError as every other call.
 */
export function apiUpload<T>(
  path: string,
  fields: Record<string, string | Blob>,
  onProgress?: (percent: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
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
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body, xhr.getResponseHeader(ERROR_CODE_HEADER)));
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.send(data);
  });
}

/** Downloads a file answered by a POST call (templates, certificates) and saves it. */
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
