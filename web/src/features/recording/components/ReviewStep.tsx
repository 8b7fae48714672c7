import { LIMITS } from '@contract/limits';
import { formatBytes } from '@lib/format';
import { t } from '@lib/i18n';
import { useEffect, useId, useState } from 'react';
import type { StoredRecording } from '../state/recording-store';
import { recordingStore } from '../state/recording-store';
import type { UploadState } from '../state/recording-upload';
import { trimProblem } from '../state/trim';

/** The recording played back from this browser's copy (the server may still be receiving it). */
function StoredPlayback({ recording }: { recording: StoredRecording }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let gone = false;
    void recordingStore()
      .chunks(recording.id)
      .then((chunks) => {
        if (gone) return;
        made = URL.createObjectURL(new Blob(chunks, { type: recording.mimeType.split(';')[0] }));
        setUrl(made);
      });
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [recording.id, recording.mimeType]);
  return (
    // A player's controls stay left to right in every language.
    <div dir="ltr">
      {url ? (
        // biome-ignore lint/a11y/useMediaCaption: the teacher's own recording, watched back before captions exist
        <video
          src={url}
          controls
          playsInline
          aria-label={t('recording.review.playback')}
          className="aspect-video w-full rounded-lg bg-slate-900"
        />
      ) : (
        <div className="aspect-video w-full rounded-lg bg-slate-100" />
      )}
    </div>
  );
}

function SecondsField({
  label,
  value,
  onValue,
  max,
}: {
  label: string;
  value: number;
  onValue: (value: number) => void;
  max: number;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="decimal"
        min={0}
        max={max}
        step={0.5}
        value={Number.isFinite(value) ? value : ''}
        onChange={(event) => onValue(Number.parseFloat(event.target.value))}
      />
    </div>
  );
}

/** How the upload stands, in words: how much is there, retrying, or the server's refusal. */
export function UploadLine({ upload, total }: { upload: UploadState | null; total: number }) {
  if (!upload) return null;
  if (upload.status === 'refused' || upload.status === 'failed' || upload.status === 'retrying') {
    return (
      <p role="alert" className="text-sm text-red-700">
        {upload.error}
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-600" aria-live="polite">
      {upload.status === 'done'
        ? t('recording.upload.done')
        : t('recording.upload.progress', { sent: formatBytes(upload.sent), total: formatBytes(total) })}
    </p>
  );
}

/** `trim.end` is null while the teacher has not typed one: the whole length, as the server measures it. */
export type ReviewValues = { nameOfTopic: string; trim: { start: number; end: number | null } };

/** After Stop: watch it back, cut the ends, name the topic; Save or Discard. */
export function ReviewStep({
  recording,
  durationSeconds,
  upload,
  total,
  busy,
  error,
  onSave,
  onDiscard,
}: {
  recording: StoredRecording;
  durationSeconds: number;
  upload: UploadState | null;
  total: number;
  busy: boolean;
  error: string;
  onSave: (values: ReviewValues) => void;
  onDiscard: () => void;
}) {
  const [name, setName] = useState(recording.nameOfTopic);
  const [start, setStart] = useState(0);
  const [end, setEnd] = useState<number | null>(null);
  const nameId = useId();
  const trim = { start, end: end ?? durationSeconds };
  const problem = trimProblem(trim, durationSeconds);
  const problemWords =
    problem === null
      ? ''
      : {
          order: t('recording.review.trimOrder'),
          range: t('recording.review.trimRange', { seconds: Math.round(durationSeconds) }),
          tooShort: t('recording.review.trimShort'),
        }[problem];
  const refused = upload?.status === 'refused';
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem && name.trim()) onSave({ nameOfTopic: name.trim(), trim: { start, end } });
      }}
    >
      <StoredPlayback recording={recording} />
      <div className="flex flex-col gap-1">
        <label htmlFor={nameId} className="text-sm font-medium text-slate-700">
          {t('topic.name')}
        </label>
        <input
          id={nameId}
          data-step-focus
          className="input"
          value={name}
          maxLength={LIMITS.topicNameMax}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={name.trim() ? undefined : true}
        />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-700">
          {t('recording.review.trim', { seconds: Math.round(durationSeconds) })}
        </legend>
        <div className="flex flex-col gap-3 sm:flex-row">
          <SecondsField
            label={t('recording.review.trimStart')}
            value={start}
            onValue={setStart}
            max={durationSeconds}
          />
          <SecondsField
            label={t('recording.review.trimEnd')}
            value={trim.end}
            onValue={setEnd}
            max={Math.ceil(durationSeconds)}
          />
        </div>
        {problemWords && (
          <p role="alert" className="text-sm text-red-700">
            {problemWords}
          </p>
        )}
      </fieldset>
      <UploadLine upload={upload} total={total} />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn btn-secondary" onClick={onDiscard} disabled={busy}>
          {t('recording.review.discard')}
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || refused || problem !== null || !name.trim()}
        >
          {busy ? t('recording.review.saving') : t('recording.review.save')}
        </button>
      </div>
    </form>
  );
}
