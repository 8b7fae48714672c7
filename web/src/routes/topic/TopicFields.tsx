import { LIMITS } from '@contract/limits';
import { rich, t } from '@lib/i18n';
import { FilePicker } from '@ui/FilePicker';
import { useAtomValue } from 'jotai';
import { useId } from 'react';
import { uploadsAtom } from '../../features/uploads/state/uploads';

export function TopicNameField({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (name: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('topic.name')}</label>
      <input
        id={id}
        className="input"
        value={value}
        maxLength={LIMITS.topicNameMax}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      />
    </div>
  );
}

/**
 * A lecture's description (optional): its timed lines become chapters on the server, whose refusal (`error`, the
 * server's own sentence naming the line) shows under the field.
 */
export function DescriptionField({
  value,
  onChange,
  disabled,
  error,
}: {
  value: string;
  onChange: (description: string) => void;
  disabled: boolean;
  error: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {rich(t('topic.description'), [
          (words) => (
            <span key="optional" className="font-normal text-slate-500">
              {words}
            </span>
          ),
        ])}
      </label>
      <textarea
        id={id}
        // Grows with its text (where the browser can), so the dialog scrolls as one instead of a box inside it.
        className="textarea min-h-28 [field-sizing:content] aria-invalid:border-red-500"
        rows={4}
        value={value}
        maxLength={LIMITS.descriptionMax}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {t('topic.descriptionHint')}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-600 [overflow-wrap:anywhere]">
          {error}
        </p>
      )}
    </div>
  );
}

/** The video file input; with `multiple`, several files at once (each becomes its own topic). */
export function VideoFileField({
  label,
  onChange,
  disabled,
  multiple = false,
}: {
  label: string;
  onChange: (files: File[]) => void;
  disabled: boolean;
  multiple?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <FilePicker id={id} accept="video/*" multiple={multiple} onFiles={onChange} disabled={disabled} />
    </div>
  );
}

/** The spec's 'Uploading: N%' for an upload of the tray (by its key), and that closing the modal keeps it going. */
export function UploadProgress({ uploadKey }: { uploadKey: string | null }) {
  const item = useAtomValue(uploadsAtom).find((entry) => entry.key === uploadKey);
  if (!item) return null;
  const percent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 0;
  // A refused file (not a video, too large): said at once, with no bar and nothing "going on" anywhere.
  if (item.status === 'refused') {
    return (
      <p role="alert" className="text-sm font-medium text-red-700 [overflow-wrap:anywhere]">
        {item.error}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm font-medium text-slate-700">
        {item.status === 'failed' ? item.error : t('topic.uploadingPercent', { percent })}
      </p>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={t('topic.uploadProgress')}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-500">{t('topic.closeHint')}</p>
    </div>
  );
}

/** "Watch by": when the class's students should have watched the lecture (issue 33), in the school's time zone. */
export function WatchByField({
  value,
  onChange,
  disabled,
  zone,
}: {
  /** A `datetime-local` value, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  /** The time zone the value is in (the school's). */
  zone: string;
}) {
  const id = useId();
  const hint = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {rich(t('topic.watchBy'), [
          (words) => (
            <span key="optional" className="font-normal text-slate-500">
              {words}
            </span>
          ),
        ])}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          type="datetime-local"
          className="input min-w-0 flex-1"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
          aria-describedby={hint}
          data-testid="watch-by"
        />
        {value && (
          <button type="button" className="btn btn-secondary" onClick={() => onChange('')} disabled={disabled}>
            {t('topic.watchByClear')}
          </button>
        )}
      </div>
      <p id={hint} className="text-xs text-slate-500">
        {rich(t('topic.watchByZone', { zone }), [
          // The zone's name (Europe/Madrid) is an identifier, the same in every language.
          (name) => (
            <span key="zone" translate="no" dir="ltr">
              {name}
            </span>
          ),
        ])}
      </p>
    </div>
  );
}
