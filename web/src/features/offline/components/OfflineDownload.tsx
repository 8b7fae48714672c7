import type { CourseJson } from '@contract/courses';
import type { LectureJson } from '@contract/lectures';
import { formatBytes } from '@lib/format';
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
      return <p className="text-sm text-slate-600">Your teacher has turned off downloads for this class.</p>;
    }
  }

  let body: React.ReactNode;
  if (saving) {
    const percent = saving.totalBytes > 0 ? Math.min(100, Math.round((saving.bytes / saving.totalBytes) * 100)) : 0;
    body = (
      <>
        <div className="flex min-w-56 flex-1 flex-col gap-1">
          <span className="text-sm text-slate-700" role="status">
            Saving for offline… {saving.total > 0 ? `${saving.done} of ${saving.total} parts, ` : ''}
            {formatBytes(saving.bytes)}
            {saving.totalBytes > 0 ? ` of ${formatBytes(saving.totalBytes)}` : ''}
          </span>
          <div
            className="h-1.5 w-full max-w-xs overflow-hidden rounded-full bg-slate-200"
            role="progressbar"
            aria-label="Saving for offline"
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => cancelSave(lecture._id)}>
          Cancel
        </button>
      </>
    );
  } else if (saved?.complete) {
    body = (
      <>
        <span className="min-w-56 flex-1 text-sm text-emerald-800" role="status">
          ✓ Saved on this device ({saved.rung}, {formatBytes(saved.bytes)}) ·{' '}
          <Link to="/downloads" className="text-indigo-700 underline">
            Downloads
          </Link>
        </span>
        <button type="button" className="btn btn-secondary" onClick={() => void removeSaved(lecture._id)}>
          Remove download
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
            ? `Not saved: ${failure.message}`
            : !online
              ? 'You are offline, and this lecture is not saved on this device.'
              : saved
                ? 'The last download did not finish.'
                : 'Watch it without a connection, in a phone-sized quality.'}
        </span>
        {failure?.storageRefused && (
          <button type="button" className="btn btn-secondary" onClick={() => setMp4(true)}>
            Download MP4 instead
          </button>
        )}
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!online}
          onClick={() => void saveForOffline(lecture, course)}
        >
          {saved ? 'Download again' : 'Download for offline'}
        </button>
      </>
    );
  }
  return <div className="flex flex-wrap items-center gap-3">{body}</div>;
}
