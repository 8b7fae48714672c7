import { t } from '@lib/i18n';
import type { useCapture } from '../hooks/useCapture';
import type { Source } from '../state/capture';
import type { LimitCheck, Limits } from '../state/limits';
import type { UploadState } from '../state/recording-upload';
import { clockOf } from '../state/trim';
import { ComposedPreview, LiveVideo } from './Preview';
import { UploadLine } from './ReviewStep';

/** While recording: the countdown, the running time, Pause/Resume and Stop, and what the limits say. */
export function RecordingStep({
  countdown,
  elapsedMs,
  paused,
  limit,
  limits,
  upload,
  total,
  problem,
  preview,
  source,
  onPause,
  onResume,
  onStop,
  onCancelCountdown,
}: {
  countdown: number | null;
  elapsedMs: number;
  paused: boolean;
  limit: LimitCheck;
  limits: Limits | undefined;
  upload: UploadState | null;
  total: number;
  problem: string;
  preview: ReturnType<typeof useCapture>;
  source: Source;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
  onCancelCountdown: () => void;
}) {
  const warning =
    limit.warn === 'time'
      ? t('recording.limit.timeSoon', { minutes: limits?.maxRecordingMinutes ?? 0 })
      : limit.warn === 'size'
        ? t('recording.limit.sizeSoon')
        : limit.warn === 'room'
          ? t('recording.limit.roomLow')
          : '';
  return (
    <div className="flex flex-col gap-4">
      <div className="relative">
        {source === 'screenAndCamera' && preview.composition ? (
          <ComposedPreview canvas={preview.composition.canvas} bubble={preview.bubble} />
        ) : (
          <LiveVideo
            stream={source === 'camera' ? preview.camera : preview.screen}
            label={t('recording.setup.preview')}
          />
        )}
        {countdown !== null && (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center rounded-lg bg-slate-900/60">
            <span className="text-6xl font-bold text-white" aria-live="assertive">
              {countdown}
            </span>
          </div>
        )}
      </div>
      {countdown === null && (
        <div className="flex flex-wrap items-center gap-3">
          <span
            className={`inline-flex items-center gap-2 text-sm font-medium ${paused ? 'text-slate-600' : 'text-red-700'}`}
          >
            <span aria-hidden="true" className={`size-3 rounded-full ${paused ? 'bg-slate-400' : 'bg-red-600'}`} />
            {paused ? t('recording.paused') : t('recording.recording')}
          </span>
          <span role="timer" aria-label={t('recording.elapsed')} className="font-mono text-lg tabular-nums" dir="ltr">
            {clockOf(elapsedMs)}
          </span>
        </div>
      )}
      {warning && (
        <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {warning}
        </p>
      )}
      <UploadLine upload={upload} total={total} />
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {countdown !== null ? (
          <button type="button" className="btn btn-secondary" data-step-focus onClick={onCancelCountdown}>
            {t('common.cancel')}
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-secondary" data-step-focus onClick={paused ? onResume : onPause}>
              {paused ? t('recording.resume') : t('recording.pause')}
            </button>
            <button type="button" className="btn btn-danger" onClick={onStop}>
              {t('recording.stop')}
            </button>
          </>
        )}
      </div>
    </div>
  );
}
