import { answer, api } from '@api/client';
import type { UploadJson } from '@contract/videos';
import { t } from '@lib/i18n';
import { readToken } from '@lib/token-cookie';
import type { DetailedError, Upload } from 'tus-js-client';
import { fileNameOf } from './capture';
import type { ChunkSource } from './chunk-source';
import type { RecordingStore, StoredRecording } from './recording-store';

/** As the upload tray: quick retries first, then a wait for the network to come back (`online` restarts it). */
const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000, 60_000];
/** Each PATCH carries at most this much: a chunk or two while recording, bigger pieces when catching up. */
const PATCH_BYTES = 16 * 1024 * 1024;

export type UploadState = {
  /** Bytes the server has. */
  sent: number;
  status: 'uploading' | 'retrying' | 'done' | 'failed' | 'refused';
  /** The server's words for a refusal (too long, too large, no room), or ours for a lost connection. */
  error: string | null;
  result: UploadJson | null;
};

/** The server's words for a refusal (our JSON error shape), or a plain sentence for a network failure. */
export function uploadProblem(error: Error | DetailedError): { message: string; final: boolean } {
  const response = (error as DetailedError).originalResponse;
  if (response) {
    const status = response.getStatus();
    // A conflict, a lock and a rate limit pass; every other 4xx (too long, too large, not your class) stays.
    const final = status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429;
    try {
      const body = JSON.parse(response.getBody() ?? '') as { message?: string };
      if (body.message) return { message: body.message, final: final || status === 507 };
    } catch {
      // not our JSON
    }
    return { message: t('recording.upload.refusedStatus', { status: String(status) }), final };
  }
  return {
    message: t(navigator.onLine ? 'recording.upload.connectionLost' : 'recording.upload.offline'),
    final: false,
  };
}

/**
 * Sends a recording through the tus upload while it is being made (`Upload-Defer-Length`), from its stored URL when
 * a reopened page resumes it (a new upload from byte 0 if the server forgot it). Answers a handle to follow it.
 */
export function uploadRecording(
  store: RecordingStore,
  recording: StoredRecording,
  source: ChunkSource,
  onState: (state: UploadState) => void,
) {
  let upload: Upload | null = null;
  let state: UploadState = { sent: 0, status: 'uploading', error: null, result: null };
  let cancelled = false;
  const set = (patch: Partial<UploadState>) => {
    state = { ...state, ...patch };
    onState(state);
  };
  let resolveDone: (result: UploadJson) => void = () => {};
  let rejectDone: (error: Error) => void = () => {};
  const finished = new Promise<UploadJson>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // Save waits on it; nobody waiting is no failure.
  finished.catch(() => {});

  const onOnline = () => {
    if (state.status === 'failed') {
      set({ status: 'uploading', error: null });
      upload?.start();
    }
  };

  void import('tus-js-client').then((tus) => {
    if (cancelled) return;
    upload = new tus.Upload(new Blob([]), {
      endpoint: '/api/uploads',
      uploadUrl: recording.uploadUrl,
      uploadLengthDeferred: true,
      chunkSize: PATCH_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      storeFingerprintForResuming: false,
      fileReader: source.fileReader(),
      metadata: {
        recording: '1',
        courseId: recording.courseId,
        filename: fileNameOf(recording.mimeType),
        filetype: recording.mimeType.split(';')[0] ?? 'video/webm',
      },
      headers: { authorization: `Bearer ${readToken() ?? ''}` },
      onUploadUrlAvailable() {
        // Kept with the chunks: a page reopened after a crash goes on from the server's bytes.
        const url = upload?.url ?? null;
        if (url && url !== recording.uploadUrl) {
          recording.uploadUrl = url;
          void store.get(recording.id).then((row) => row && store.put({ ...row, uploadUrl: url }));
        }
      },
      onProgress(bytesSent) {
        set({ sent: bytesSent, status: 'uploading', error: null });
      },
      onShouldRetry(error, _attempt, options) {
        const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
        const retry = status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry && status !== 507) set({ status: 'retrying', error: uploadProblem(error).message });
        return retry && status !== 507 && (options.retryDelays?.length ?? 0) > 0;
      },
      onError(error) {
        const problem = uploadProblem(error);
        set({ status: problem.final ? 'refused' : 'failed', error: problem.message });
        if (problem.final) rejectDone(new Error(problem.message));
      },
      async onSuccess() {
        const id = upload?.url?.split('/').pop() ?? '';
        try {
          const result = await answer(api.uploads[':id'].$get({ param: { id } }));
          set({ status: 'done', sent: source.size, error: null, result });
          resolveDone(result);
        } catch (error) {
          set({ status: 'refused', error: (error as Error).message });
          rejectDone(error as Error);
        }
      },
    });
    window.addEventListener('online', onOnline);
    upload.start();
  });

  return {
    /** The upload's answer once the last byte is there (rejects when the server refused the recording). */
    finished,
    get state() {
      return state;
    },
    retry: onOnline,
    /** Stops sending; `terminate` also deletes what the server has (Discard before the upload finished). */
    async cancel(terminate: boolean) {
      cancelled = true;
      window.removeEventListener('online', onOnline);
      source.close();
      await upload?.abort(terminate).catch(() => {
        // unreachable server: the unfinished upload expires there after a day
      });
    },
    detach() {
      window.removeEventListener('online', onOnline);
    },
  };
}

export type RecordingUpload = ReturnType<typeof uploadRecording>;
