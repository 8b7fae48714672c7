import { useAtomValue } from 'jotai';
import { useEffect, useId, useState } from 'react';
import { formatBytes, formatEta } from '../lib/format';
import {
  cancelUpload,
  forgetInterrupted,
  hasActiveUploads,
  interruptedAtom,
  loadInterrupted,
  retryUpload,
  startUpload,
  type UploadItem,
  uploadsAtom,
} from '../state/uploads';
import { ConfirmDialog } from './ConfirmDialog';
import { ChevronIcon, CloseIcon, RefreshIcon } from './icons';

/**
 * Video uploads in the app shell: they go on while the teacher closes the modal or opens another class, each with
 * progress, speed and time left; Cancel asks first; leaving the page while one runs asks the browser's question.
 * Uploads a reload cut short are listed, and go on from the server's bytes when their file is picked again.
 */
export function UploadTray() {
  const uploads = useAtomValue(uploadsAtom);
  const interrupted = useAtomValue(interruptedAtom);
  const [collapsed, setCollapsed] = useState(false);
  const [cancelling, setCancelling] = useState<UploadItem | null>(null);
  const headingId = useId();

  useEffect(() => {
    void loadInterrupted();
    const warn = (event: BeforeUnloadEvent) => {
      if (!hasActiveUploads()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  if (uploads.length === 0 && interrupted.length === 0) return null;
  const active = uploads.filter((item) => item.status !== 'done' && item.status !== 'failed').length;

  return (
    <section
      aria-labelledby={headingId}
      className="fixed inset-x-2 bottom-2 z-30 max-h-[60dvh] overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl sm:inset-x-auto sm:right-4 sm:bottom-4 sm:w-96"
      data-testid="upload-tray"
    >
      <header className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 id={headingId} className="text-sm font-semibold text-slate-900">
          {active > 0 ? `Uploading ${active} ${active === 1 ? 'video' : 'videos'}` : 'Uploads'}
        </h2>
        <button
          type="button"
          className="icon-btn"
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Show uploads' : 'Hide uploads'}
          onClick={() => setCollapsed((value) => !value)}
        >
          <ChevronIcon size={18} className={collapsed ? 'rotate-180' : ''} />
        </button>
      </header>
      {!collapsed && (
        <ul className="max-h-[calc(60dvh-3rem)] divide-y divide-slate-100 overflow-y-auto">
          {uploads.map((item) => (
            <TrayRow key={item.key} item={item} onCancel={() => setCancelling(item)} />
          ))}
          {interrupted.map((entry) => (
            <InterruptedRow key={entry.urlStorageKey} entry={entry} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancel this upload?"
        confirmLabel="Cancel upload"
        busy={false}
        onConfirm={() => {
          if (cancelling) void cancelUpload(cancelling.key);
          setCancelling(null);
        }}
        onClose={() => setCancelling(null)}
      >
        <p>
          <strong className="break-all">{cancelling?.fileName}</strong> stops uploading and what was sent is deleted.
          You would have to send it again from the start.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function TrayRow({ item, onCancel }: { item: UploadItem; onCancel: () => void }) {
  const percent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 0;
  const eta = item.speed ? (item.size - item.sent) / item.speed : null;
  let detail = `${percent}% of ${formatBytes(item.size)}`;
  if (item.status === 'uploading' && item.speed) detail += ` · ${formatBytes(item.speed)}/s · ${formatEta(eta)}`;
  if (item.status === 'retrying') detail = `${percent}% · reconnecting…`;
  if (item.status === 'finishing') detail = 'Checking the video…';
  if (item.status === 'done') detail = 'Uploaded. It is being prepared for playback.';
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="upload-row" data-status={item.status}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-slate-900">{item.topicName || item.fileName}</p>
          {item.topicName && <p className="truncate text-xs text-slate-500">{item.fileName}</p>}
        </div>
        {item.status !== 'done' && (
          <button
            type="button"
            className="icon-btn shrink-0"
            aria-label={`Cancel upload of ${item.fileName}`}
            onClick={onCancel}
          >
            <CloseIcon size={16} />
          </button>
        )}
      </div>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={`Upload of ${item.fileName}`}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className={`h-full transition-[width] ${item.status === 'failed' ? 'bg-red-500' : item.status === 'done' ? 'bg-emerald-500' : 'bg-indigo-600'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      {item.status === 'failed' ? (
        <div className="flex items-center justify-between gap-2">
          <p role="alert" className="text-xs text-red-700">
            {item.error}
          </p>
          <button
            type="button"
            className="btn btn-secondary shrink-0 px-2 py-1 text-xs"
            onClick={() => retryUpload(item.key)}
          >
            <RefreshIcon size={14} /> Retry
          </button>
        </div>
      ) : (
        <p className="text-xs text-slate-600" aria-live="polite">
          {detail}
        </p>
      )}
    </li>
  );
}

function InterruptedRow({ entry }: { entry: import('tus-js-client').PreviousUpload }) {
  const inputId = useId();
  const name = entry.metadata.filename ?? 'video';
  const topic = entry.metadata.nameOfTopic ?? '';
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="interrupted-row">
      <p className="truncate text-sm font-medium text-slate-900">{topic || name}</p>
      <p className="text-xs text-slate-600">
        Interrupted. Choose <strong className="break-all">{name}</strong> again to go on where it stopped.
      </p>
      <div className="flex gap-2">
        <label htmlFor={inputId} className="btn btn-secondary cursor-pointer px-2 py-1 text-xs">
          Choose file
        </label>
        <input
          id={inputId}
          type="file"
          accept="video/*"
          className="sr-only"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (!file) return;
            const courseId = entry.metadata.courseId ?? '';
            const target = entry.metadata.lectureId
              ? { courseId, lectureId: entry.metadata.lectureId }
              : { courseId, nameOfTopic: topic || file.name };
            startUpload(file, target);
          }}
        />
        <button
          type="button"
          className="btn btn-secondary px-2 py-1 text-xs"
          onClick={() => forgetInterrupted(entry.urlStorageKey)}
        >
          Forget
        </button>
      </div>
    </li>
  );
}

/** Room at the end of the page, so the tray never hides its last lines. */
export function UploadTraySpacer() {
  const count = useAtomValue(uploadsAtom).length + useAtomValue(interruptedAtom).length;
  return count > 0 ? <div aria-hidden="true" className="h-44" /> : null;
}
