import { errorMessage } from '@api/query-client';
import type { LectureJson } from '@contract/lectures';
import { formatBytes } from '@lib/format';
import { rich, t } from '@lib/i18n';
import { useEffect, useRef, useState } from 'react';
import { getMp4, type Mp4Download as Mp4State, requestMp4 } from '../api/offline';

/** How often a preparing MP4 is asked about. */
const POLL_MS = 1000;

/**
 * The plain MP4, for browsers that cannot keep a lecture inside the app: the server remuxes the phone-sized rung on
 * demand ("Preparing… 40%"), then the browser downloads the file. Once saved outside the app it cannot be taken back.
 */
export function Mp4Download({ lecture }: { lecture: LectureJson }) {
  const [state, setState] = useState<Mp4State | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!busy || !state || state.status !== 'preparing') return;
    const timer = setTimeout(() => {
      getMp4(lecture._id).then(setState, (failure) => {
        setError(errorMessage(failure));
        setBusy(false);
      });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [busy, state, lecture._id]);

  // Ready: the browser downloads it (once per click).
  useEffect(() => {
    if (!busy || state?.status !== 'ready' || started.current) return;
    started.current = true;
    setBusy(false);
    link.current?.click();
  }, [busy, state]);

  const start = () => {
    setError('');
    setBusy(true);
    started.current = false;
    requestMp4(lecture._id).then(setState, (failure) => {
      setError(errorMessage(failure));
      setBusy(false);
    });
  };

  const failed = state?.status === 'failed';
  const status = error
    ? t('offline.mp4.notDownloaded', { reason: error })
    : failed
      ? state.error
        ? t('offline.mp4.notDownloaded', { reason: state.error })
        : t('offline.mp4.prepareFailed')
      : busy
        ? t('offline.mp4.preparingPercent', { progress: (state?.progress ?? 0) / 100 })
        : state?.status === 'ready'
          ? // The file's name comes from the lecture's title: not translated.
            rich(t('offline.mp4.downloaded', { filename: state.filename, size: formatBytes(state.bytes) }), [
              (name) => (
                <span key="name" translate="no">
                  {name}
                </span>
              ),
            ])
          : t('offline.mp4.intro');
  return (
    <div className="flex flex-wrap items-center gap-3">
      <span className={`min-w-56 flex-1 text-sm ${error || failed ? 'text-red-700' : 'text-slate-600'}`} role="status">
        {status}
      </span>
      {state?.url && (
        // biome-ignore lint/a11y/useAnchorContent: a hidden link the browser follows to save the file
        <a ref={link} href={state.url} download={state.filename} className="hidden" tabIndex={-1} aria-hidden="true" />
      )}
      <button type="button" className="btn btn-secondary" onClick={start} disabled={busy}>
        {t(
          busy
            ? 'offline.mp4.preparing'
            : state?.status === 'ready'
              ? 'offline.mp4.downloadAgain'
              : 'offline.mp4.download',
        )}
      </button>
    </div>
  );
}
