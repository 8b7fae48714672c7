import { formatBytes, formatLongDate } from '@lib/format';
import { t } from '@lib/i18n';
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
          {t('offline.list.offline')}
        </p>
      )}
      <p className="text-sm text-slate-600" data-testid="storage-estimate">
        {[
          entries.length > 0 ? t('offline.list.savedTake', { size: formatBytes(total) }) : '',
          estimate
            ? t('offline.list.siteUses', { used: formatBytes(estimate.usage), quota: formatBytes(estimate.quota) })
            : canSaveOffline()
              ? ''
              : t('offline.list.cannotKeep'),
        ]
          .filter(Boolean)
          .join(' ')}
      </p>
      {entries.length === 0 ? (
        <div className="empty-state">
          <p className="font-medium text-slate-800">{t('offline.list.emptyTitle')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('offline.list.emptyHint')}</p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t('offline.list.label')}>
          {entries.map((entry) => {
            const progress = saving[entry.lectureId];
            return (
              <li key={entry.lectureId} className="card flex flex-wrap items-center gap-3 p-3 sm:p-4">
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/classroom/${entry.courseId}?lecture=${entry.lectureId}`}
                    className="font-medium break-words text-slate-900 hover:text-indigo-700"
                    translate="no"
                  >
                    {entry.title}
                  </Link>
                  <p className="text-sm break-words text-slate-600" translate="no">
                    {entry.courseName}
                  </p>
                  <p className="mt-1 text-xs text-slate-500">
                    {progress
                      ? progress.totalBytes
                        ? t('offline.list.savingOf', {
                            bytes: formatBytes(progress.bytes),
                            total: formatBytes(progress.totalBytes),
                          })
                        : t('offline.list.saving', { bytes: formatBytes(progress.bytes) })
                      : entry.complete
                        ? t('offline.list.savedDetail', {
                            quality: entry.rung,
                            size: formatBytes(entry.bytes),
                            date: formatLongDate(new Date(entry.savedAt).toISOString()),
                          })
                        : t('offline.list.unfinished')}
                  </p>
                </div>
                {progress ? (
                  <button type="button" className="btn btn-secondary" onClick={() => cancelSave(entry.lectureId)}>
                    {t('common.cancel')}
                  </button>
                ) : (
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => void removeSaved(entry.lectureId)}
                    aria-label={t('offline.list.removeLabel', { title: entry.title })}
                  >
                    {t('common.remove')}
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
