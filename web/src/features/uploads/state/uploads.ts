/**
 * The upload tray's state: every video upload of this tab, resumable (tus, `/api/uploads`), outliving the modal
 * that started it. Uploads retry with backoff when the connection drops, go on where the server stopped when
 * the network comes back, and after a reload resume from the server's bytes when the teacher picks the same file
 * again (tus-js-client finds it by its fingerprint: name, type, size, last change).
 */

import { answer, api } from '@api/client';
import { queryClient } from '@api/query-client';
import { lectureKeys } from '@api/query-keys';
import type { UploadJson } from '@contract/videos';
import { t } from '@lib/i18n';
import { onSignOut } from '@lib/sign-out';
import { appStore } from '@lib/store';
import { toast } from '@lib/toast';
import { readToken } from '@lib/token-cookie';
import { atom } from 'jotai';
import type { DetailedError, PreviousUpload, Upload } from 'tus-js-client';

/** Small enough to pass a proxy with a 100 MB body limit (many CDNs), big enough to keep the overhead low. */
export const CHUNK_BYTES = 50 * 1024 * 1024;
/** Waits between retries after a failed request, then the upload waits for the network to come back. */
const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000, 60_000];
const DONE_VISIBLE_MS = 8_000;

/** Where the upload goes: a new topic of a class, or a new video for a topic. */
export type UploadTarget = { courseId: string; nameOfTopic: string } | { courseId: string; lectureId: string };

export type UploadItem = {
  key: string;
  fileName: string;
  topicName: string;
  size: number;
  sent: number;
  /** Smoothed bytes per second over the last seconds; null until known. */
  speed: number | null;
  /**
   * `failed`: stopped by the network or the server's trouble; Retry goes on. `refused`: the file itself was turned
   * down (not a video, too large, …): nothing to retry, the teacher removes it and picks another file. `paused`: the
   * teacher paused it (a metered connection, a call); the server keeps what it has and Resume goes on from there.
   */
  status: 'uploading' | 'retrying' | 'finishing' | 'paused' | 'done' | 'failed' | 'refused';
  error: string | null;
  courseId: string;
  lectureId: string | null;
};

export type UploadResult = UploadJson & { lectureId?: string };

export const uploadsAtom = atom<UploadItem[]>([]);
/** Uploads found in this browser's storage that a reload interrupted: they go on when their file is picked again. */
export const interruptedAtom = atom<PreviousUpload[]>([]);

const running = new Map<string, Upload>();
const listeners = new Map<string, (result: UploadResult) => void>();
let nextKey = 1;

const update = (key: string, patch: Partial<UploadItem>) =>
  appStore.set(uploadsAtom, (list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));
const remove = (key: string) => {
  running.delete(key);
  listeners.delete(key);
  appStore.set(uploadsAtom, (list) => list.filter((item) => item.key !== key));
};

/** What a browser may call a video file: its type, or (for a type the browser does not know) its extension. */
const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|qt|webm|mkv|avi|wmv|flv|mpe?g|mpg|ts|mts|m2ts|3gp|3g2|ogv|vob|mxf|dv)$/i;
export function looksLikeVideo(file: File): boolean {
  if (file.type.startsWith('video/')) return true;
  if (VIDEO_EXTENSIONS.test(file.name)) return true;
  // No type or a generic one: let the server's ffprobe decide.
  return file.type === '' || file.type === 'application/octet-stream';
}

/** A refusal no retry changes (the file, its size, the target): every 4xx but a conflict, a lock or a rate limit. */
const isFinalRefusal = (error: Error | DetailedError) => {
  const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
  return status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429;
};

/** The server's words for a refusal (our JSON error shape), or a plain sentence for a network failure. */
function messageOf(error: Error | DetailedError): string {
  const response = (error as DetailedError).originalResponse;
  if (response) {
    try {
      const body = JSON.parse(response.getBody() ?? '') as { message?: string };
      if (body.message) return body.message;
    } catch {
      // not our JSON
    }
    return t('uploads.error.refusedStatus', { status: String(response.getStatus()) });
  }
  return t(navigator.onLine ? 'uploads.error.connectionLost' : 'uploads.error.offline');
}

const loadTus = () => import('tus-js-client');

let started = false;
/**
 * The tray's first use (an upload, or the tray reading what a reload cut short): sign-out then discards every upload
 * and what this browser keeps to resume them, and failed uploads go on by themselves when the network is back.
 */
export function startUploads() {
  if (started) return;
  started = true;
  onSignOut(forgetAllUploads);
  // A long outage outlasts the retry delays.
  window.addEventListener('online', () => {
    for (const item of appStore.get(uploadsAtom)) if (item.status === 'failed') retryUpload(item.key);
  });
}

/** Starts (or, for a file this browser sent part of before, resumes) an upload in the tray; answers its key. */
export function startUpload(file: File, target: UploadTarget, onDone?: (result: UploadResult) => void): string {
  startUploads();
  const key = `upload-${nextKey++}`;
  const lectureId = 'lectureId' in target ? target.lectureId : null;
  const topicName = 'nameOfTopic' in target ? target.nameOfTopic : '';
  // Not a video: said at once, and nothing is sent.
  const refused = looksLikeVideo(file) ? null : t('uploads.error.notVideo', { name: file.name });
  appStore.set(uploadsAtom, (list) => [
    ...list,
    {
      key,
      fileName: file.name,
      topicName,
      size: file.size,
      sent: 0,
      speed: null,
      status: refused ? 'refused' : 'uploading',
      error: refused,
      courseId: target.courseId,
      lectureId,
    },
  ]);
  if (refused) return key;
  if (onDone) listeners.set(key, onDone);
  void run(key, file, target).catch((error: Error) => update(key, { status: 'failed', error: messageOf(error) }));
  return key;
}

async function run(key: string, file: File, target: UploadTarget) {
  const tus = await loadTus();
  let sample = { at: performance.now(), bytes: 0 };
  const metadata: Record<string, string> = { filename: file.name, filetype: file.type || 'video/mp4' };
  if ('lectureId' in target) metadata.lectureId = target.lectureId;
  else {
    metadata.courseId = target.courseId;
    metadata.nameOfTopic = target.nameOfTopic;
  }
  const upload = new tus.Upload(file, {
    endpoint: '/api/uploads',
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    metadata,
    headers: { authorization: `Bearer ${readToken() ?? ''}` },
    removeFingerprintOnSuccess: true,
    onProgress(bytesSent) {
      // A request still draining after Pause reports its last bytes: the row stays paused.
      if (appStore.get(uploadsAtom).find((entry) => entry.key === key)?.status === 'paused') return;
      const now = performance.now();
      const item = appStore.get(uploadsAtom).find((entry) => entry.key === key);
      let speed = item?.speed ?? null;
      if (now - sample.at >= 1000) {
        const current = ((bytesSent - sample.bytes) * 1000) / (now - sample.at);
        speed = speed === null ? current : speed * 0.7 + current * 0.3;
        sample = { at: now, bytes: bytesSent };
      }
      update(key, { sent: bytesSent, speed, status: bytesSent >= file.size ? 'finishing' : 'uploading', error: null });
    },
    onShouldRetry(error, _attempt, options) {
      const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
      const retry = status === 0 || status >= 500 || status === 409 || status === 423;
      if (retry) update(key, { status: 'retrying', error: messageOf(error), speed: null });
      return retry && (options.retryDelays?.length ?? 0) > 0;
    },
    onError(error) {
      if (!isFinalRefusal(error)) {
        update(key, { status: 'failed', error: messageOf(error), speed: null });
        return;
      }
      // The server turned the file down (and deleted what it had): no Retry, and no "interrupted" after a reload.
      running.delete(key);
      listeners.delete(key);
      update(key, { status: 'refused', error: messageOf(error), speed: null });
      void forgetFile(file, upload);
    },
    async onSuccess() {
      const id = upload.url?.split('/').pop() ?? '';
      try {
        const result = await answer(api.uploads[':id'].$get({ param: { id } }));
        update(key, { status: 'done', sent: file.size, speed: null, error: null });
        await queryClient.invalidateQueries({ queryKey: lectureKeys.ofCourse(target.courseId) });
        listeners.get(key)?.(result);
        const item = appStore.get(uploadsAtom).find((entry) => entry.key === key);
        toast.success(t('uploads.toast.uploaded', { name: item?.topicName || file.name }));
        setTimeout(() => remove(key), DONE_VISIBLE_MS);
      } catch (error) {
        update(key, { status: 'failed', error: (error as Error).message });
      }
    },
  });
  running.set(key, upload);
  const previous = await upload.findPreviousUploads();
  if (previous[0]) {
    upload.resumeFromPreviousUpload(previous[0]);
    // Shown as running now; its stored entry stays, so another reload can resume it again.
    const resumed = previous[0].urlStorageKey;
    appStore.set(interruptedAtom, (list) => list.filter((entry) => entry.urlStorageKey !== resumed));
  }
  // Paused (or cancelled) before it got going: Resume starts it.
  if (appStore.get(uploadsAtom).find((entry) => entry.key === key)?.status !== 'uploading') return;
  upload.start();
}

/** Forgets what this browser kept to resume the file's upload (tus-js-client's entry in localStorage). */
async function forgetFile(file: File, upload: Upload) {
  const tus = await loadTus();
  try {
    const fingerprint = await tus.defaultOptions.fingerprint(file, upload.options);
    const storage = tus.defaultOptions.urlStorage;
    for (const entry of await storage.findUploadsByFingerprint(fingerprint)) {
      if (entry.urlStorageKey) await storage.removeUpload(entry.urlStorageKey);
    }
  } catch {
    // storage blocked: nothing was kept
  }
}

/** Takes a refused or finished upload off the tray (nothing runs any more: nothing to ask). */
export function dismissUpload(key: string) {
  const item = appStore.get(uploadsAtom).find((entry) => entry.key === key);
  if (item && (item.status === 'done' || item.status === 'refused')) remove(key);
}

/** The tray's "Clear finished": uploads that are done or were refused leave; running and failed ones stay. */
export function clearFinished() {
  for (const item of appStore.get(uploadsAtom)) dismissUpload(item.key);
}

/** Stops an upload and deletes what the server has of it. The tray asks the teacher first. */
export async function cancelUpload(key: string) {
  const upload = running.get(key);
  remove(key);
  await upload?.abort(true).catch(() => {
    // the server may be unreachable; the unfinished upload expires there after a day
  });
}

/** Starts a failed upload again, from the bytes the server has. */
export function retryUpload(key: string) {
  const upload = running.get(key);
  const item = appStore.get(uploadsAtom).find((entry) => entry.key === key);
  if (!upload || item?.status !== 'failed') return;
  update(key, { status: 'uploading', error: null });
  upload.start();
}

/** Pauses a running upload: the request stops, the server keeps the bytes it has (tus), Resume goes on from them. */
export function pauseUpload(key: string) {
  const item = appStore.get(uploadsAtom).find((entry) => entry.key === key);
  if (item?.status !== 'uploading' && item?.status !== 'retrying') return;
  update(key, { status: 'paused', speed: null, error: null });
  // Not made yet (tus still loading): `run` sees the pause and does not start it.
  void running
    .get(key)
    ?.abort(false)
    .catch(() => {
      // nothing to stop
    });
}

/** Resumes a paused upload from the bytes the server has. */
export function resumeUpload(key: string) {
  const item = appStore.get(uploadsAtom).find((entry) => entry.key === key);
  if (item?.status !== 'paused') return;
  update(key, { status: 'uploading', error: null });
  // Not made yet: `run` starts it when it gets there.
  running.get(key)?.start();
}

/**
 * Sign-out: every upload of this tab stops (the server deletes what it has of each), the tray empties, and the
 * resumable uploads this browser remembers are forgotten, so the next person sees none of them.
 */
export async function discardAllUploads() {
  const stopping = [...running.values()].map((upload) =>
    upload.abort(true).catch(() => {
      // unreachable server: the unfinished upload expires there after a day
    }),
  );
  running.clear();
  listeners.clear();
  appStore.set(uploadsAtom, []);
  appStore.set(interruptedAtom, []);
  // A server that does not answer must not hold the sign-out: what it keeps expires there after a day.
  await Promise.race([Promise.all(stopping), new Promise((resolve) => setTimeout(resolve, 3000))]);
}

/** Sign-out: what `discardAllUploads` stops, and every upload this browser remembers (tus-js-client's `tus::` keys). */
function forgetAllUploads() {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith('tus::')) localStorage.removeItem(key);
  } catch {
    // storage blocked: nothing was kept
  }
  return discardAllUploads();
}

/** Whether an upload is under way (not done, failed or refused; a paused one is still unfinished). */
export const isActive = (item: UploadItem) =>
  item.status !== 'done' && item.status !== 'failed' && item.status !== 'refused';
export const hasActiveUploads = () => appStore.get(uploadsAtom).some(isActive);

const hasStoredUploads = () => {
  try {
    return Object.keys(localStorage).some((key) => key.startsWith('tus::'));
  } catch {
    return true; // storage not readable here: let tus-js-client say what it finds
  }
};

/** Reads the uploads a reload cut short (kept by tus-js-client in localStorage) into the tray. */
export async function loadInterrupted() {
  startUploads();
  // tus-js-client keeps each upload under a `tus::` key: with none there is nothing to read, and its 14 KB stay
  // off the pages of everyone who is not uploading (a student's class page loads it before the first frame otherwise).
  if (!hasStoredUploads()) {
    appStore.set(interruptedAtom, []);
    return;
  }
  const tus = await loadTus();
  const stored = await tus.defaultOptions.urlStorage.findAllUploads().catch(() => [] as PreviousUpload[]);
  const mine = new Set(appStore.get(uploadsAtom).map((item) => item.fileName));
  appStore.set(
    interruptedAtom,
    stored.filter((entry) => !mine.has(entry.metadata.filename ?? '')),
  );
}

/** Drops an interrupted upload from the tray and this browser's storage (the server expires it after a day). */
export async function forgetInterrupted(urlStorageKey: string | undefined) {
  if (!urlStorageKey) return;
  appStore.set(interruptedAtom, (list) => list.filter((entry) => entry.urlStorageKey !== urlStorageKey));
  const tus = await loadTus();
  await tus.defaultOptions.urlStorage.removeUpload(urlStorageKey).catch(() => {});
}
