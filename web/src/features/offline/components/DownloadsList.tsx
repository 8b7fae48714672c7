import { formatBytes, formatLongDate } from '@lib/format';
import { useOnline } from '@lib/online';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { cancelSave, canSaveOffline, removeSaved, savedLecturesAtom, savingAtom } from '../state/downloads';

type Estimate = { usage: number; quota: number } | null;

/** How much this site keeps on the device and may keep (`navigator.storage.estimate()`), after each change. */
function useStorageEstimate(changes: unknown): Estimate {
  const [estimate, setEstimate] = useState<Estimate>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again whenever the saved list changes
  useEffect(() => {
    let live = true;
    navigator.storage
      ?.estimate?.()
      .then((answer) => {
        if (live) setEstimate({ usage: answer.usage ?? 0, quota: answer.quota ?? 0 });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [changes]);
  return estimate;
}

/** The lectures saved on this device, with their sizes, the storage used and left, and Remove. */
export function DownloadsList() {
  const saved = useAtomValue(savedLecturesAtom);
  const saving = useAtomValue(savingAtom);
  const estimate = useStorageEstimate(saved);
  const online = useOnline();
  const entries = Object.values(saved).sort((a, b) => b.savedAt - a.savedAt);
  const total = entries.reduce((sum, entry) => sum + (entry.complete ? entry.bytes : 0), 0);
  return (
    <div className="flex flex-col gap-4">
      {!online && (
        <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" role="status">
          You are offline. The lectures below still play; notes you write are kept on this device and sent when the
          connection returns.
        </p>
      )}
      <p className="text-sm text-slate-600" data-testid="storage-estimate">
        {entries.length > 0 ? `Saved lectures take ${formatBytes(total)}. ` : ''}
        {estimate
          ? `This site uses ${formatBytes(estimate.usage)} of the ${formatBytes(estimate.quota)} this browser allows it.`
          : canSaveOffline()
            ? ''
            : 'This browser cannot keep lectures inside the app; a lecture offers an MP4 download instead.'}
      </p>
      {entries.length === 0 ? (
        <div className="empty-state">
          <p className="font-medium text-slate-800">No lectures saved on this device</p>
          <p className="mt-1 text-sm text-slate-600">
            Open a lecture and choose "Download for offline" to watch it without a connection.
          </p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Saved lectures">
          {entries.map((entry) => {
            const progress = saving[entry.lectureId];
            return (
              <li key={entry.lectureId} className="card flex flex-wrap items-center gap-3 p-3 sm:p-4">
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/classroom/${entry.courseId}?lecture=${entry.lectureId}`}
                    className="font-medium break-words text-slate-900 hover:text-indigo-700"
                  >
                    {entry.title}
                  </Link>
                  <p className="text-sm break-words text-slate-600">{entry.courseName}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {progress
                      ? `Saving… ${formatBytes(progress.bytes)}${progress.totalBytes ? ` of ${formatBytes(progress.totalBytes)}` : ''}`
                      : entry.complete
                        ? `${entry.rung} · ${formatBytes(entry.bytes)} · saved ${formatLongDate(new Date(entry.savedAt).toISOString())}`
                        : 'Not finished: open the lecture to download it again, or remove it.'}
                  </p>
                </div>
                {progress ? (
                  <button type="button" className="btn btn-secondary" onClick={() => cancelSave(entry.lectureId)}>
                    Cancel
                  </button>
                ) : (
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => void removeSaved(entry.lectureId)}
                    aria-label={`Remove ${entry.title}`}
                  >
                    Remove
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
