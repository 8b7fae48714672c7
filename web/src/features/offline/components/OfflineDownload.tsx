import type { CourseJson } from '@contract/courses';
import type { LectureJson } from '@contract/lectures';
import { formatBytes } from '@lib/format';
import { rich, t } from '@lib/i18n';
import { useOnline } from '@lib/online';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  cancelSave,
  canSaveOffline,
  removeSaved,
  savedLecturesAtom,
  saveFailuresAtom,
  saveForOffline,
  savingAtom,
} from '../state/downloads';
import { Mp4Download } from './Mp4Download';

/**
 * "Download for offline" under a lecture: saves its phone-sized quality in the app (progress, Cancel), then shows it
 * as saved with Remove. Where the browser cannot keep it (no service worker or Cache Storage, or storage refused),
 * a plain MP4 is offered instead. A class whose teacher turned downloads off says so instead of a button.
 */
export function OfflineDownload({
  lecture,
  course,
  isTeacher,
}: {
  lecture: LectureJson;
  course: CourseJson;
  isTeacher: boolean;
}) {
  const saved = useAtomValue(savedLecturesAtom)[lecture._id];
  const saving = useAtomValue(savingAtom)[lecture._id];
  const failure = useAtomValue(saveFailuresAtom)[lecture._id];
  const online = useOnline();
  const [mp4, setMp4] = useState(false);
  if (lecture.video?.status !== 'ready') return null;
  if (!course.downloadsAllowed && !isTeacher) {
    if (!saved?.complete) {
      return <p className="text-sm text-slate-600">{t('offline.lecture.turnedOff')}</p>;
    }
  }

  let body: React.ReactNode;
  if (saving) {
    const percent = saving.totalBytes > 0 ? Math.min(100, Math.round((saving.bytes / saving.totalBytes) * 100)) : 0;
    body = (
      <>
        <div className="flex min-w-56 flex-1 flex-col gap-1">
          <span className="text-sm text-slate-700" role="status">
            {saving.total === 0
              ? t('offline.lecture.saving', { bytes: formatBytes(saving.bytes) })
              : saving.totalBytes > 0
                ? t('offline.lecture.savingPartsOf', {
                    done: saving.done,
                    total: saving.total,
                    bytes: formatBytes(saving.bytes),
                    totalBytes: formatBytes(saving.totalBytes),
                  })
                : t('offline.lecture.savingParts', {
                    done: saving.done,
                    total: saving.total,
                    bytes: formatBytes(saving.bytes),
                  })}
          </span>
          <div
            className="h-1.5 w-full max-w-xs overflow-hidden rounded-full bg-slate-200"
            role="progressbar"
            aria-label={t('offline.lecture.savingLabel')}
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => cancelSave(lecture._id)}>
          {t('common.cancel')}
        </button>
      </>
    );
  } else if (saved?.complete) {
    body = (
      <>
        <span className="min-w-56 flex-1 text-sm text-emerald-800" role="status">
          {rich(t('offline.lecture.saved', { quality: saved.rung, size: formatBytes(saved.bytes) }), [
            (words) => (
              <Link key="downloads" to="/downloads" className="text-indigo-700 underline">
                {words}
              </Link>
            ),
          ])}
        </span>
        <button type="button" className="btn btn-secondary" onClick={() => void removeSaved(lecture._id)}>
          {t('offline.lecture.removeDownload')}
        </button>
      </>
    );
  } else if (mp4 || !canSaveOffline()) {
    return <Mp4Download lecture={lecture} />;
  } else {
    body = (
      <>
        <span className="min-w-56 flex-1 text-sm text-slate-600" role={failure || saved ? 'alert' : undefined}>
          {failure
            ? t('offline.lecture.notSaved', { reason: failure.message })
            : t(
                !online
                  ? 'offline.lecture.offlineNotSaved'
                  : saved
                    ? 'offline.lecture.unfinished'
                    : 'offline.lecture.intro',
              )}
        </span>
        {failure?.storageRefused && (
          <button type="button" className="btn btn-secondary" onClick={() => setMp4(true)}>
            {t('offline.lecture.mp4Instead')}
          </button>
        )}
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!online}
          onClick={() => void saveForOffline(lecture, course)}
        >
          {t(saved ? 'offline.lecture.downloadAgain' : 'offline.lecture.download')}
        </button>
      </>
    );
  }
  return <div className="flex flex-wrap items-center gap-3">{body}</div>;
}
