import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { type ReactNode, useState } from 'react';
import { type QueueEntry, useCancelJob, useRetryJob } from '../api/admin';

/** What a job is about, as a person reads it: the lecture and class, the video file, or a mail's recipient count. */
function subjectOf(entry: QueueEntry): ReactNode {
  if (entry.lectureTitle) {
    return (
      <>
        <span className="font-medium">{entry.lectureTitle}</span>
        <span className="text-slate-600"> in {entry.className}</span>
      </>
    );
  }
  if (entry.recipients !== null) return entry.recipients === 1 ? '1 recipient' : `${entry.recipients} recipients`;
  if (entry.fileName) return entry.fileName;
  if (entry.type === 'transcode' || entry.type === 'slides' || entry.type === 'download') return 'Deleted video';
  return null;
}

const attemptsWord = (count: number) => (count === 1 ? '1 attempt' : `${count} attempts`);

/** Where a job is, in plain words: a job that has not run yet only waits; a count is given once there is one. */
export function stateWords({ state, attempts }: Pick<QueueEntry, 'state' | 'attempts'>) {
  switch (state) {
    case 'running':
      return `Running (attempt ${attempts})`;
    case 'queued':
      return attempts === 0 ? 'Waiting' : `Waiting to retry (${attemptsWord(attempts)} failed)`;
    case 'failed':
      return attempts === 0 ? 'Failed' : `Failed after ${attemptsWord(attempts)}`;
    case 'cancelled':
      return 'Cancelled';
    case 'done':
      return 'Done';
  }
}

/** Every job that runs, waits (in the order it will run) or failed, as the server lists them, by type, with Retry and Cancel for a video's processing. */
export function JobQueue({ queue }: { queue: QueueEntry[] }) {
  const retry = useRetryJob();
  const cancel = useCancelJob();
  /** The processing the administrator asked to cancel: it throws away work done, so it is asked first. */
  const [cancelling, setCancelling] = useState<{ videoId: string; name: string | null } | null>(null);
  if (queue.length === 0) return <p className="mt-1 text-sm text-slate-600">Nothing waits or runs.</p>;
  const confirmCancel = () => {
    if (!cancelling) return;
    const { videoId, name } = cancelling;
    cancel.mutate(videoId, {
      onSuccess: () => toast.success(`Processing of "${name ?? 'the video'}" was cancelled.`),
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
                {subject !== null && ' · '}
                <span className="font-medium">{stateWords(entry)}</span>
                {entry.lectureTitle && entry.fileName && (
                  <span className="block text-xs text-slate-600">{entry.fileName}</span>
                )}
                {entry.state === 'cancelled' && (
                  <span className="block text-xs text-slate-700">
                    Processing was cancelled. The teacher reads it on the topic and can retry it or delete the topic;
                    Retry here starts it again.
                  </span>
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
                  Retry
                </button>
              )}
              {processing && (entry.state === 'queued' || entry.state === 'running') && (
                <button
                  type="button"
                  className="btn btn-secondary h-8 px-3 text-xs"
                  aria-label={`Cancel processing of ${name ?? 'this video'}`}
                  onClick={() => setCancelling({ videoId: entry.videoId as string, name })}
                >
                  Cancel
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancel processing?"
        confirmLabel="Stop processing"
        busyLabel="Stopping..."
        busy={cancel.isPending}
        onConfirm={confirmCancel}
        onClose={() => setCancelling(null)}
      >
        <p>
          Processing of {cancelling?.name ? `"${cancelling.name}"` : 'this video'} stops and the work done so far is
          lost. The teacher sees that it was cancelled; Retry starts it again from the beginning.
        </p>
      </ConfirmDialog>
    </>
  );
}
