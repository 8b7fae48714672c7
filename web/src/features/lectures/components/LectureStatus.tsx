import { formatClock, formatEta, processingForStudents } from '@lib/format';
import { t } from '@lib/i18n';
import { type Lecture, useRetryVideo } from '../api/lectures';

/**
 * One line under a topic: processing with percent and time left, failed or cancelled with the reason (and Retry
 * for the teacher, who can also delete the topic), or its length. Students
 * (who cannot retry) read only "Processing…, ready in about 2 min", or that the video is not available.
 */
export function LectureStatus({ lecture, canRetry }: { lecture: Lecture; canRetry: boolean }) {
  const retry = useRetryVideo(lecture.courseId);
  const video = lecture.video;
  if (!video) return <span className="text-xs text-slate-600">{t('lectures.status.noVideo')}</span>;
  if (!canRetry && (video.status === 'queued' || (video.status === 'processing' && !video.playable)))
    return <span className="text-xs font-medium text-indigo-700">{processingForStudents(video.etaSeconds)}</span>;
  if (!canRetry && (video.status === 'failed' || video.status === 'cancelled'))
    return <span className="text-xs text-slate-600">{t('lectures.status.unavailable')}</span>;
  if (!canRetry && video.status === 'processing')
    return <span className="text-xs text-slate-600">{formatClock(video.durationSeconds)}</span>;
  if (video.status === 'queued')
    return <span className="text-xs font-medium text-amber-700">{t('lectures.status.waiting')}</span>;
  if (video.status === 'processing') {
    const eta = formatEta(video.etaSeconds);
    return (
      <span className="flex flex-col gap-1">
        <span className="text-xs font-medium text-indigo-700">
          {t('lectures.status.processing', { percent: Math.floor(video.progress) })}
          {eta ? ` · ${eta}` : ''}
          {video.playable ? ` · ${t('lectures.status.watchable')}` : ''}
        </span>
        <span
          className="h-1 overflow-hidden rounded-full bg-indigo-100"
          role="progressbar"
          aria-label={t('lectures.status.processingOf', { name: lecture.nameOfTopic })}
          aria-valuenow={Math.floor(video.progress)}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <span className="block h-full bg-indigo-500 transition-[width]" style={{ width: `${video.progress}%` }} />
        </span>
      </span>
    );
  }
  if (video.status === 'failed' || video.status === 'cancelled') {
    return (
      <span className="flex flex-col items-start gap-1">
        <span className="text-xs font-medium text-red-700">
          {video.status === 'cancelled'
            ? (video.error ?? t('lectures.status.cancelled'))
            : t('lectures.status.failed', { reason: video.error ?? t('lectures.status.unknownReason') })}
        </span>
        {canRetry && (
          <button
            type="button"
            className="relative z-10 text-xs font-semibold text-indigo-700 hover:underline"
            onClick={() => retry.mutate(video._id)}
            disabled={retry.isPending}
          >
            {t('common.retry')}
          </button>
        )}
      </span>
    );
  }
  return <span className="text-xs text-slate-600">{formatClock(video.durationSeconds)}</span>;
}
