/** Cache Storage names and keys, shared by the app and its service worker (docs/offline.md). */

/** The app shell's cache: `classroom-shell-<build version>`; a new build's worker deletes the older ones. */
export const SHELL_PREFIX = 'classroom-shell-';
/** One person's saved lectures and JSON: `classroom-offline-<user id>`, deleted on sign-out. */
export const OFFLINE_PREFIX = 'classroom-offline-';
export const offlineCacheName = (userId: string) => `${OFFLINE_PREFIX}${userId}`;

/** `/media/videos/{id}/{expiry}.{hmac}/1/seg_00001.m4s` → `/media/videos/{id}/1/seg_00001.m4s` (src/media/segment-token.ts). */
const MEDIA_PATH = /^\/media\/videos\/([A-Za-z0-9_-]{1,64})\/(?:\d{1,12}\.[A-Za-z0-9_-]{22}\/)?(.+)$/;

/** A video file's path without its signed token folder: the key its saved copy is kept under. */
export function normalisedMediaPath(path: string): string | undefined {
  const match = MEDIA_PATH.exec(path);
  return match ? `/media/videos/${match[1]}/${match[2]}` : undefined;
}

/** A lecture's slide list (`/api/lectures/{id}/slides`) or one of its thumbnails (`…/slides/{slideId}.webp`). */
export const SLIDES_PATH = /^\/api\/lectures\/[\w-]+\/slides(?:\/[\w-]+\.webp)?$/;
