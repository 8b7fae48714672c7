import { useId, useRef, useState } from 'react';
import { LIMITS } from '../../../src/contract/limits';
import { uploadVideo } from '../api/lectures';

/** Uploads with progress; Cancel aborts the upload. */
export function useUpload() {
  const [percent, setPercent] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  return {
    percent,
    async upload(file: File) {
      controller.current = new AbortController();
      setPercent(0);
      try {
        return await uploadVideo(file, setPercent, controller.current.signal);
      } finally {
        setPercent(null);
        controller.current = null;
      }
    },
    cancel() {
      controller.current?.abort();
    },
  };
}

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

export function VideoFileField({
  label,
  onChange,
  disabled,
}: {
  label: string;
  onChange: (file: File | null) => void;
  disabled: boolean;
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
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
        disabled={disabled}
      />
    </div>
  );
}

export function UploadProgress({ percent }: { percent: number | null }) {
  if (percent === null) return null;
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm font-medium text-slate-700">Uploading: {percent}%</p>
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
    </div>
  );
}
