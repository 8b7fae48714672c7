import { formatBytes, formatEta } from '@lib/format';
import { rich, t } from '@lib/i18n';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { ChevronIcon, CloseIcon, PauseIcon, PlayIcon, RefreshIcon } from '@ui/icons';
import { useAtomValue } from 'jotai';
import { useEffect, useId, useState } from 'react';
import {
  cancelUpload,
  clearFinished,
  dismissUpload,
  forgetInterrupted,
  hasActiveUploads,
  interruptedAtom,
  isActive,
  loadInterrupted,
  pauseUpload,
  resumeUpload,
  retryUpload,
  startUpload,
  type UploadItem,
  uploadsAtom,
} from '../state/uploads';

const PHONE = '(max-width: 639px)';

/**
 * Video uploads in the app shell: they go on while the teacher closes the modal or opens another class, each with
 * progress, speed and time left; Cancel asks first; leaving the page while one runs asks the browser's question.
 * Uploads a reload cut short are listed, and go on from the server's bytes when their file is picked again.
 * It docks in the page's flow, above the page under the header, so it never lies over a control (a fixed tray hid
 * the playlist's "Add New Topic" and the player's controls). On a phone it starts collapsed to one line; finished
 * uploads leave after a few seconds, refused ones on "Clear finished" or their ×.
 */
export function UploadTray() {
  const uploads = useAtomValue(uploadsAtom);
  const interrupted = useAtomValue(interruptedAtom);
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(PHONE).matches);
  const [cancelling, setCancelling] = useState<UploadItem | null>(null);
  const headingId = useId();
  const shown = uploads.length > 0 || interrupted.length > 0;

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

  if (!shown) return null;
  const running = uploads.filter(isActive);
  const finished = uploads.filter((item) => item.status === 'done' || item.status === 'refused').length;
  const failed = uploads.filter((item) => item.status === 'failed').length;
  const sent = running.reduce((sum, item) => sum + item.sent, 0);
  const total = running.reduce((sum, item) => sum + item.size, 0);
  let summary = t('uploads.tray.title');
  const paused = running.filter((item) => item.status === 'paused').length;
  if (running.length > 0 && paused === running.length) {
    summary = t('uploads.tray.paused', { count: paused });
  } else if (running.length > 0) {
    summary =
      collapsed && total > 0
        ? t('uploads.tray.uploadingPercent', { count: running.length, percent: Math.floor((sent / total) * 100) / 100 })
        : t('uploads.tray.uploading', { count: running.length });
  } else if (failed > 0) summary = t('uploads.tray.stopped', { count: failed });
  else {
    const refused = uploads.filter((item) => item.status === 'refused').length;
    if (refused > 0) summary = t('uploads.tray.refused', { count: refused });
  }

  return (
    <section
      aria-labelledby={headingId}
      className="mb-4 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
      data-testid="upload-tray"
      data-collapsed={collapsed}
    >
      <header className="flex items-center justify-between gap-2 border-b border-slate-200 py-1 ps-4 pe-1">
        <h2 id={headingId} className="min-w-0 truncate text-sm font-semibold text-slate-900">
          {summary}
        </h2>
        <div className="flex shrink-0 items-center">
          {finished > 0 && (
            <button type="button" className="btn h-10 px-2 text-xs text-indigo-700" onClick={clearFinished}>
              {t('uploads.tray.clearFinished')}
            </button>
          )}
          <button
            type="button"
            className="icon-btn"
            aria-expanded={!collapsed}
            aria-label={t(collapsed ? 'uploads.tray.show' : 'uploads.tray.hide')}
            onClick={() => setCollapsed((value) => !value)}
          >
            <ChevronIcon size={18} className={collapsed ? 'rotate-180' : ''} />
          </button>
        </div>
      </header>
      {!collapsed && (
        <ul className="max-h-[40dvh] divide-y divide-slate-100 overflow-y-auto">
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
        title={t('uploads.cancel.title')}
        confirmLabel={t('uploads.cancel.confirm')}
        busy={false}
        onConfirm={() => {
          if (cancelling) void cancelUpload(cancelling.key);
          setCancelling(null);
        }}
        onClose={() => setCancelling(null)}
      >
        <p>
          {rich(t('uploads.cancel.body', { name: cancelling?.fileName ?? '' }), [
            (name) => (
              <strong key="name" className="break-all" translate="no">
                {name}
              </strong>
            ),
          ])}
        </p>
      </ConfirmDialog>
    </section>
  );
}

function TrayRow({ item, onCancel }: { item: UploadItem; onCancel: () => void }) {
  const percent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 0;
  const eta = item.speed ? (item.size - item.sent) / item.speed : null;
  // The messages format the percent in the language (`{percent, number, percent}` takes a fraction).
  const progress = { percent: percent / 100, size: formatBytes(item.size) };
  let detail =
    item.status === 'uploading' && item.speed
      ? t('uploads.row.progressSpeed', { ...progress, speed: formatBytes(item.speed), eta: formatEta(eta) })
      : t('uploads.row.progress', progress);
  if (item.status === 'retrying') detail = t('uploads.row.reconnecting', progress);
  if (item.status === 'finishing') detail = t('uploads.row.checking');
  if (item.status === 'paused') detail = t('uploads.row.paused', progress);
  const pausable = item.status === 'uploading' || item.status === 'retrying';
  if (item.status === 'done') detail = t('uploads.row.done');
  if (item.status === 'refused') {
    return (
      <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="upload-row" data-status="refused">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-slate-900" translate="no">
              {item.topicName || item.fileName}
            </p>
            <p role="alert" className="text-xs text-red-700 [overflow-wrap:anywhere]">
              {item.error}
            </p>
          </div>
          <button
            type="button"
            className="icon-btn shrink-0"
            aria-label={t('uploads.row.removeLabel', { name: item.fileName })}
            onClick={() => dismissUpload(item.key)}
          >
            <CloseIcon size={16} />
          </button>
        </div>
      </li>
    );
  }
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="upload-row" data-status={item.status}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-slate-900" translate="no">
            {item.topicName || item.fileName}
          </p>
          {item.topicName && (
            <p className="truncate text-xs text-slate-500" translate="no">
              {item.fileName}
            </p>
          )}
        </div>
        <div className="flex shrink-0 items-center">
          {pausable && (
            <button
              type="button"
              className="icon-btn"
              aria-label={t('uploads.row.pauseLabel', { name: item.fileName })}
              onClick={() => pauseUpload(item.key)}
            >
              <PauseIcon size={16} />
            </button>
          )}
          {item.status === 'paused' && (
            <button
              type="button"
              className="icon-btn"
              aria-label={t('uploads.row.resumeLabel', { name: item.fileName })}
              onClick={() => resumeUpload(item.key)}
            >
              <PlayIcon size={14} />
            </button>
          )}
          {item.status !== 'done' && (
            <button
              type="button"
              className="icon-btn"
              aria-label={t('uploads.row.cancelLabel', { name: item.fileName })}
              onClick={onCancel}
            >
              <CloseIcon size={16} />
            </button>
          )}
        </div>
      </div>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={t('uploads.row.progressLabel', { name: item.fileName })}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className={`h-full transition-[width] ${item.status === 'failed' ? 'bg-red-500' : item.status === 'done' ? 'bg-emerald-500' : item.status === 'paused' ? 'bg-slate-400' : 'bg-indigo-600'}`}
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
            <RefreshIcon size={14} /> {t('common.retry')}
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
  const name = entry.metadata.filename ?? t('uploads.interrupted.defaultName');
  const topic = entry.metadata.nameOfTopic ?? '';
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="interrupted-row">
      <p className="truncate text-sm font-medium text-slate-900" translate="no">
        {topic || name}
      </p>
      <p className="text-xs text-slate-600">
        {rich(t('uploads.interrupted.text', { name }), [
          (words) => (
            <strong key="name" className="break-all" translate="no">
              {words}
            </strong>
          ),
        ])}
      </p>
      <div className="flex gap-2">
        <label htmlFor={inputId} className="btn btn-secondary cursor-pointer px-2 py-1 text-xs">
          {t('uploads.interrupted.choose')}
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
          {t('uploads.interrupted.forget')}
        </button>
      </div>
    </li>
  );
}
