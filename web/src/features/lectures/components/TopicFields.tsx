import { useAtomValue } from 'jotai';
import { useId } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { uploadsAtom } from '../../uploads/state/uploads';

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
      <label htmlFor={id}>Topic Name</label>
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
      <input
        id={id}
        type="file"
        accept="video/*"
        className="file-input"
        multiple={multiple}
        onChange={(event) => onChange([...(event.target.files ?? [])])}
        disabled={disabled}
      />
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
        {item.status === 'failed' ? item.error : `Uploading: ${percent}%`}
      </p>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-500">You can close this window: the upload goes on in the uploads tray.</p>
    </div>
  );
}
