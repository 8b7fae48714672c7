import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { theirWords } from '@ui/TheirWords';
import { type ReactNode, useState } from 'react';
import { type QueueEntry, useCancelJob, useRetryJob } from '../api/admin';

/** What a job is about, as a person reads it: the lecture and class, the video file, or a mail's recipient count. */
function subjectOf(entry: QueueEntry): ReactNode {
  if (entry.lectureTitle && entry.className) {
    return (
      <span className="text-slate-600">
        {theirWords(
          t('admin.queue.lectureIn', { lecture: entry.lectureTitle, className: entry.className }),
          'font-medium text-slate-800',
        )}
      </span>
    );
  }
  if (entry.lectureTitle) return <span translate="no">{entry.lectureTitle}</span>;
  if (entry.recipients !== null) return t('admin.queue.recipients', { count: entry.recipients });
  if (entry.fileName) return <span translate="no">{entry.fileName}</span>;
  if (entry.type === 'transcode' || entry.type === 'slides' || entry.type === 'download')
    return t('admin.queue.deletedVideo');
  return null;
}

/** Where a job is, in plain words: a job that has not run yet only waits; a count is given once there is one. */
export function stateWords({ state, attempts }: Pick<QueueEntry, 'state' | 'attempts'>) {
  switch (state) {
    case 'running':
      return t('admin.queue.running', { attempt: attempts });
    case 'queued':
      return attempts === 0 ? t('admin.queue.waiting') : t('admin.queue.waitingRetry', { count: attempts });
    case 'failed':
      return attempts === 0 ? t('admin.queue.failed') : t('admin.queue.failedAfter', { count: attempts });
    case 'cancelled':
      return t('admin.queue.cancelled');
    case 'done':
      return t('admin.queue.done');
  }
}

/** Every job that runs, waits (in the order it will run) or failed, as the server lists them, by type, with Retry and Cancel for a video's processing. */
export function JobQueue({ queue }: { queue: QueueEntry[] }) {
  const retry = useRetryJob();
  const cancel = useCancelJob();
  /** The processing the administrator asked to cancel: it throws away work done, so it is asked first. */
  const [cancelling, setCancelling] = useState<{ videoId: string; name: string | null } | null>(null);
  if (queue.length === 0) return <p className="mt-1 text-sm text-slate-600">{t('admin.queue.empty')}</p>;
  const confirmCancel = () => {
    if (!cancelling) return;
    const { videoId, name } = cancelling;
    cancel.mutate(videoId, {
      onSuccess: () =>
        toast.success(name ? t('admin.queue.cancelledToast', { name }) : t('admin.queue.cancelledToastNoName')),
      onSettled: () => setCancelling(null),
    });
  };
  return (
    <>
      <ul className="mt-2 flex flex-col gap-3">
        {queue.map((entry) => {
          const processing = entry.type === 'transcode' && entry.videoId;
          const name = entry.lectureTitle ?? entry.fileName;
          const subject = subjectOf(entry);
          return (
            <li key={entry._id} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 text-slate-800 [overflow-wrap:anywhere]">
                <span className="block text-xs font-semibold text-slate-600">{entry.typeName}</span>
                {subject}
                {subject !== null && <span aria-hidden="true"> · </span>}
                <span className="font-medium">{stateWords(entry)}</span>
                {entry.lectureTitle && entry.fileName && (
                  <span className="block text-xs text-slate-600" translate="no">
                    {entry.fileName}
                  </span>
                )}
                {entry.state === 'cancelled' && (
                  <span className="block text-xs text-slate-700">{t('admin.queue.cancelledNote')}</span>
                )}
                {entry.lastError && entry.state !== 'cancelled' && (
                  <span className="block text-xs text-red-700">{entry.lastError}</span>
                )}
              </span>
              {processing && (entry.state === 'failed' || entry.state === 'cancelled') && (
                <button
                  type="button"
                  className="btn btn-secondary h-8 px-3 text-xs"
                  onClick={() => retry.mutate(entry.videoId as string)}
                >
                  {t('common.retry')}
                </button>
              )}
              {processing && (entry.state === 'queued' || entry.state === 'running') && (
                <button
                  type="button"
                  className="btn btn-secondary h-8 px-3 text-xs"
                  aria-label={name ? t('admin.queue.cancelLabel', { name }) : t('admin.queue.cancelLabelNoName')}
                  onClick={() => setCancelling({ videoId: entry.videoId as string, name })}
                >
                  {t('common.cancel')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={cancelling !== null}
        title={t('admin.queue.confirmTitle')}
        confirmLabel={t('admin.queue.confirm')}
        busyLabel={t('admin.queue.stopping')}
        busy={cancel.isPending}
        onConfirm={confirmCancel}
        onClose={() => setCancelling(null)}
      >
        <p>
          {cancelling?.name
            ? theirWords(t('admin.queue.confirmText', { name: cancelling.name }))
            : t('admin.queue.confirmTextNoName')}
        </p>
      </ConfirmDialog>
    </>
  );
}
