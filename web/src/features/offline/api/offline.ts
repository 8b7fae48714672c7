import { answer, api } from '@api/client';
import { courseKeys } from '@api/query-keys';
import { t } from '@lib/i18n';
import { readToken } from '@lib/token-cookie';
import { useMutation, useQueryClient } from '@tanstack/react-query';

export type {
  DownloadJson as Mp4Download,
  OfflineManifestJson as OfflineManifest,
} from '@contract/downloads';

/** What to save to play a lecture offline: its phone-sized rung's playlist and files, captions, total size. */
export const getOfflineManifest = (lectureId: string, signal?: AbortSignal) =>
  answer(api.lectures[':id'].offline.$get({ param: { id: lectureId } }, { init: { signal } }));

/**
 * The plain MP4 (browsers without offline storage): ask for it, then ask how it is going. The GET is also the online
 * check of a saved copy: it makes nothing, and refuses once the person may no longer download the lecture.
 */
export const requestMp4 = (lectureId: string) =>
  answer(api.lectures[':id'].download.$post({ param: { id: lectureId } }));
export const getMp4 = (lectureId: string) => answer(api.lectures[':id'].download.$get({ param: { id: lectureId } }));

/**
 * Fetches one of the person's own answers (or a video file) to keep in their offline cache: the raw response, with
 * the bearer header the service worker names the cache by. Throws on a failed answer.
 */
export async function fetchForOffline(path: string, signal?: AbortSignal): Promise<Response> {
  const token = readToken();
  const headers: Record<string, string> = path.startsWith('/api/') ? { accept: 'application/json' } : {};
  if (token && path.startsWith('/api/')) headers.authorization = `Bearer ${token}`;
  const answer = await fetch(path, { headers, signal, credentials: 'same-origin' });
  if (!answer.ok) throw new Error(t('offline.save.fileFailed', { path, status: String(answer.status) }));
  return answer;
}

/** The teacher's switch: may students save this class's lectures for offline viewing? */
export function useSetDownloadsAllowed(courseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (downloadsAllowed: boolean) =>
      answer(api.courses[':id'].$patch({ param: { id: courseId }, json: { downloadsAllowed } })),
    onSuccess: (course) => client.setQueryData(courseKeys.detail(course._id), course),
  });
}
