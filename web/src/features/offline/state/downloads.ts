import { ApiError } from '@api/client';
import type { CourseJson } from '@contract/courses';
import type { LectureJson } from '@contract/lectures';
import { t } from '@lib/i18n';
import { currentUserId, readPersonalRecord } from '@lib/person';
import { onSignOut } from '@lib/sign-out';
import { appStore } from '@lib/store';
import { toast } from '@lib/toast';
import { atom } from 'jotai';
import { fetchForOffline, getMp4, getOfflineManifest } from '../api/offline';
import { normalisedMediaPath, OFFLINE_PREFIX, offlineCacheName, SLIDES_PATH } from './cache-keys';
import { keepWholeShell, registerServiceWorker } from './service-worker';

/**
 * Lectures saved for offline viewing (docs/offline.md). The files live in the person's Cache Storage cache; the list
 * of what is saved lives in localStorage under a `classroom.` key, so sign-out forgets it with everything else.
 * An entry is written as `complete: false` before the first file and turned complete only after the last one, so
 * a reload or a crash mid-way shows "Not finished", never a half copy as saved.
 */
export type SavedLecture = {
  lectureId: string;
  courseId: string;
  courseName: string;
  title: string;
  videoId: string;
  rung: string;
  bytes: number;
  /**
   * Cache keys of its video files, master, captions and slide strip (list and thumbnails); the JSON of the class is
   * shared, kept while any is saved.
   */
  files: string[];
  savedAt: number;
  complete: boolean;
};
export type SaveProgress = { done: number; total: number; bytes: number; totalBytes: number };
export type SaveFailure = { message: string; storageRefused: boolean };

const indexKey = (userId: string) => `classroom.offline.downloads.${userId}`;

/** Whether this browser can keep lectures for offline (a service worker to answer the player, and Cache Storage). */
export const canSaveOffline = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'caches' in window && window.isSecureContext;

const readIndex = (userId: string | undefined) => readPersonalRecord<SavedLecture>(userId && indexKey(userId));

/** What is saved on this device for the person signed in (complete or not): read by `startOfflineData`. */
export const savedLecturesAtom = atom<Record<string, SavedLecture>>({});
/** Saves running in this tab, by lecture. */
export const savingAtom = atom<Record<string, SaveProgress>>({});
/** The last save that failed, by lecture (storage refused: the MP4 is offered instead). */
export const saveFailuresAtom = atom<Record<string, SaveFailure>>({});

const controllers = new Map<string, AbortController>();

function writeEntry(userId: string, entry: SavedLecture | null, lectureId: string) {
  const index = readIndex(userId);
  if (entry) index[lectureId] = entry;
  else delete index[lectureId];
  try {
    localStorage.setItem(indexKey(userId), JSON.stringify(index));
  } catch {
    // storage full or blocked: the atom still shows it for this visit
  }
  appStore.set(savedLecturesAtom, index);
}

const patch = <T>(target: typeof savingAtom | typeof saveFailuresAtom, lectureId: string, value: T | null) =>
  appStore.set(target as typeof saveFailuresAtom, (all) => {
    const next = { ...all };
    if (value === null) delete next[lectureId];
    else next[lectureId] = value as SaveFailure;
    return next;
  });

/** Re-reads the list (the person changed, or another tab saved something). */
export function refreshSaved() {
  appStore.set(savedLecturesAtom, readIndex(currentUserId()));
}

/** Reads the person's list of saved lectures, and has sign-out forget everything kept for offline. */
export function startOfflineData() {
  onSignOut(forgetOfflineData);
  refreshSaved();
}

/** The one-rung master the player gets offline: the real master cut to the saved rung, its token folder taken out. */
function offlineMaster(master: string, rungIndex: string): string {
  const lines = master.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('#EXT-X-MEDIA:TYPE=SUBTITLES')) continue;
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      const uri = (lines[i + 1] ?? '').trim();
      i++;
      if (uri.endsWith(`${rungIndex}/index.m3u8`))
        kept.push(line.replace(/,SUBTITLES="[^"]*"/, ''), `${rungIndex}/index.m3u8`);
      continue;
    }
    kept.push(line);
  }
  return `${kept.join('\n').trim()}\n`;
}

/** The class's JSON the app reads offline: who the person is, their classes, this class, its lectures, the notes. */
const classJson = (courseId: string, lectureId: string) => [
  '/api/users',
  '/api/courses',
  `/api/courses/${courseId}`,
  `/api/lectures/course/${courseId}`,
  `/api/lectures/${lectureId}`,
  // The lecture's questions as this student reads them (never with right answers they have not earned yet).
  `/api/lectures/${lectureId}/questions`,
  `/api/enrollments/${courseId}/notes`,
];

/**
 * Saves a lecture's phone-sized rung, its captions and poster, and the JSON the app needs to show it offline, into
 * the person's cache; progress in `savingAtom`. A cancel or a failure removes what this save wrote.
 */
export async function saveForOffline(lecture: LectureJson, course: Pick<CourseJson, '_id' | 'courseName'>) {
  const userId = currentUserId();
  const video = lecture.video;
  if (!userId || !video || controllers.has(lecture._id)) return;
  const controller = new AbortController();
  const { signal } = controller;
  controllers.set(lecture._id, controller);
  patch(saveFailuresAtom, lecture._id, null);
  patch(savingAtom, lecture._id, { done: 0, total: 0, bytes: 0, totalBytes: 0 });
  const entry: SavedLecture = {
    lectureId: lecture._id,
    courseId: course._id,
    courseName: course.courseName,
    title: lecture.nameOfTopic,
    videoId: video._id,
    rung: '',
    bytes: 0,
    files: [],
    savedAt: Date.now(),
    complete: false,
  };
  // The worker that plays it back offline (and opens the app's shell without a network) installs meanwhile.
  const worker = registerServiceWorker();
  try {
    const manifest = await getOfflineManifest(lecture._id, signal);
    const rungIndex = /\/(\d)\/index\.m3u8$/.exec(manifest.playlist)?.[1];
    if (!rungIndex) throw new Error(t('offline.save.unknownFormat'));
    // Ask the browser to keep what is saved when space runs low (it may say no: the copy then may be evicted).
    await navigator.storage?.persist?.().catch(() => false);
    const cache = await caches.open(offlineCacheName(userId));
    // The slide strip: the list as this person reads it (with its X-Slide-Index header) and the thumbnails it names.
    const slidesPath = `/api/lectures/${lecture._id}/slides`;
    const slidesAnswer = await fetchForOffline(slidesPath, signal);
    const thumbnails = ((await slidesAnswer.clone().json()) as { thumbnail: string }[])
      .map((slide) => slide.thumbnail)
      .filter((url) => SLIDES_PATH.test(url) && url.startsWith(`${slidesPath}/`));
    entry.rung = manifest.rung.name;
    entry.files = [
      ...[manifest.playlist, ...manifest.files, ...(manifest.poster ? [manifest.poster] : [])].map(
        (url) => normalisedMediaPath(url) ?? url,
      ),
      `/media/videos/${video._id}/master.m3u8`,
      ...manifest.captions.map((caption) => caption.url),
      slidesPath,
      ...thumbnails,
    ];
    writeEntry(userId, entry, lecture._id);
    const downloads = [manifest.playlist, ...manifest.files, ...(manifest.poster ? [manifest.poster] : [])];
    const extra = manifest.captions.map((caption) => caption.url);
    const progress: SaveProgress = {
      done: 0,
      total: downloads.length + extra.length + thumbnails.length + 2,
      bytes: 0,
      totalBytes: manifest.bytes,
    };
    patch(savingAtom, lecture._id, progress);
    /** Keeps one file; `unplanned` bytes (the thumbnails: not in the manifest's size) grow the total as they come. */
    const keep = async (url: string, key: string, unplanned = false) => {
      const answer = await fetchForOffline(url, signal);
      const body = await answer.blob();
      await cache.put(
        key,
        new Response(body, { headers: { 'content-type': answer.headers.get('content-type') ?? '' } }),
      );
      progress.done += 1;
      progress.bytes += body.size;
      if (unplanned) progress.totalBytes += body.size;
      patch(savingAtom, lecture._id, { ...progress });
    };
    for (const url of downloads) await keep(url, normalisedMediaPath(url) ?? url);
    for (const url of extra) await keep(url, url);
    for (const url of thumbnails) await keep(url, url, true);
    await cache.put(slidesPath, slidesAnswer);
    progress.done += 1;
    const master = await (await fetchForOffline(video.masterPlaylist, signal)).text();
    await cache.put(
      `/media/videos/${video._id}/master.m3u8`,
      new Response(offlineMaster(master, rungIndex), { headers: { 'content-type': 'application/vnd.apple.mpegurl' } }),
    );
    progress.done += 1;
    for (const path of classJson(course._id, lecture._id)) {
      const answer = await fetchForOffline(path, signal).catch(() => undefined);
      if (answer) await cache.put(path, answer);
    }
    // Saved only once the worker is active and keeps the whole app: without both, the copy could not be opened
    // offline (the page may not have been the worker's while it saved, so the worker is asked, not assumed).
    const registration = await worker;
    if (!registration || !(await keepWholeShell(registration))) throw new Error(t('offline.save.noWorker'));
    entry.bytes = progress.bytes;
    entry.complete = true;
    entry.savedAt = Date.now();
    writeEntry(userId, entry, lecture._id);
  } catch (error) {
    await removeSaved(lecture._id);
    if (!signal.aborted) {
      const storageRefused =
        error instanceof DOMException && (error.name === 'QuotaExceededError' || error.name === 'SecurityError');
      const message = storageRefused
        ? t('offline.save.noRoom')
        : error instanceof TypeError
          ? // fetch's own failure (no network): the browser's words are not in the person's language.
            t('common.cannotReach')
          : error instanceof Error
            ? error.message
            : t('offline.save.failed');
      patch(saveFailuresAtom, lecture._id, { message, storageRefused });
    }
  } finally {
    controllers.delete(lecture._id);
    patch(savingAtom, lecture._id, null);
  }
}

/** Stops a save in progress; what it wrote is removed. */
export function cancelSave(lectureId: string) {
  controllers.get(lectureId)?.abort();
}

/** Deletes a saved lecture's files (those no other saved lecture shares) and its entry; the cache goes with the last. */
export async function removeSaved(lectureId: string) {
  const userId = currentUserId();
  if (!userId) return;
  const index = readIndex(userId);
  const entry = index[lectureId];
  const others = Object.values(index).filter((other) => other.lectureId !== lectureId);
  const name = offlineCacheName(userId);
  // The files go first, then the entry: the list never says "removed" while the bytes are still there.
  if ('caches' in window && (await caches.has(name))) {
    if (others.length === 0) {
      await caches.delete(name);
      // A refresh of the person's JSON already in flight in the service worker could open the cache again.
      setTimeout(() => {
        if (Object.keys(readIndex(userId)).length === 0) void caches.delete(name);
      }, 2000);
    } else if (entry) {
      const stillUsed = new Set(others.flatMap((other) => other.files));
      const cache = await caches.open(name);
      await Promise.all(entry.files.filter((key) => !stillUsed.has(key)).map((key) => cache.delete(key)));
    }
  }
  writeEntry(userId, null, lectureId);
}

/**
 * Drops saved files no entry names (a save cut short by a closed page, whose own clean-up never ran), and the whole
 * cache when nothing is saved; run at the start of the signed-in app, when no save of this tab is running.
 */
export async function pruneSaved() {
  const userId = currentUserId();
  if (!userId || controllers.size > 0 || typeof caches === 'undefined') return;
  const name = offlineCacheName(userId);
  if (!(await caches.has(name))) return;
  const entries = Object.values(readIndex(userId));
  if (entries.length === 0) {
    await caches.delete(name);
    return;
  }
  const named = new Set(entries.flatMap((entry) => entry.files));
  const cache = await caches.open(name);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const isFile = path.startsWith('/media/') || path.includes('/captions/') || SLIDES_PATH.test(path);
    if (isFile && !named.has(path)) await cache.delete(request);
  }
}

/**
 * Everything kept for offline by anyone in this browser: the caches of saved lectures and JSON (the service
 * worker's shell stays: it holds no one's data). Run at sign-out and when another person signs in.
 */
export async function forgetOfflineData(keepUserId?: string) {
  for (const controller of controllers.values()) controller.abort();
  appStore.set(savedLecturesAtom, {});
  appStore.set(savingAtom, {});
  appStore.set(saveFailuresAtom, {});
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(OFFLINE_PREFIX) && (!keepUserId || name !== offlineCacheName(keepUserId)))
      .map((name) => caches.delete(name)),
  );
  if (keepUserId) refreshSaved();
}

/** What a refusal of the download check means for a copy already saved (docs/offline.md, "Files already on a device"). */
function lostBecause(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 404) return t('offline.lost.notInClass');
  if (error.status === 403) return t('offline.lost.downloadsOff');
  if (error.status === 409 && error.code === 'no_video') return t('offline.lost.videoRemoved');
  return undefined;
}

/**
 * The online check of every saved lecture (`GET /api/lectures/{id}/download`, which makes nothing): one the person
 * may no longer keep (removed from the class, lecture deleted, downloads turned off, video taken off) is deleted
 * from this device, and they are told why. A failed network, or any other answer, changes nothing.
 */
export async function checkSavedAccess() {
  const saved = Object.values(readIndex(currentUserId()));
  for (const entry of saved) {
    if (!entry.complete) continue;
    try {
      await getMp4(entry.lectureId);
    } catch (error) {
      const reason = lostBecause(error);
      if (!reason) continue;
      await removeSaved(entry.lectureId);
      toast.error(t('offline.lost.removed', { title: entry.title }), { description: reason });
    }
  }
}
