import { ApiError, sessionEnded } from '@api/client';
import { t } from './i18n';
import { readToken } from './token-cookie';

/*
 * Apart from ./client so that the first page (sign-in) does not carry it: only Settings' profile picture uses it.
 */

/** Sends a multipart form with upload progress (fetch cannot report it), same errors as request(). */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    const token = readToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: keep the empty body
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else {
        if (xhr.status === 401 && token) sessionEnded();
        const message = typeof data.error === 'string' ? data.error : `Upload failed (${xhr.status})`;
        reject(new ApiError(xhr.status, message, data));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, t('common.uploadInterrupted')));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
