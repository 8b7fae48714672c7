import { t } from '@lib/i18n';
import { type InputHTMLAttributes, type Ref, useState } from 'react';
import { Field, type FieldProps } from './Field';

/**
 * The browser's own file control speaks the browser's language ("Choose File", "No file chosen") and is cut short
 * in WebKit: this one is ours. The input stays the focusable control (visually hidden); its button is a label, and
 * the chosen files' names are shown beside it.
 */
export function FilePicker({
  ref,
  id,
  multiple,
  disabled,
  onFiles,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'className'> & {
  id: string;
  onFiles: (files: File[]) => void;
  ref?: Ref<HTMLInputElement>;
}) {
  const [names, setNames] = useState<string[]>([]);
  return (
    <div className="flex min-w-0 items-center gap-3">
      <input
        {...input}
        ref={ref}
        id={id}
        type="file"
        multiple={multiple}
        disabled={disabled}
        className="peer sr-only"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          setNames(files.map((file) => file.name));
          onFiles(files);
        }}
      />
      <label
        htmlFor={id}
        aria-hidden="true"
        className="btn btn-secondary shrink-0 cursor-pointer peer-disabled:cursor-not-allowed peer-disabled:opacity-60 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-500"
      >
        {t(multiple ? 'ui.file.chooseMany' : 'ui.file.choose')}
      </label>
      {names.length > 0 ? (
        <span className="min-w-0 truncate text-sm text-slate-700" translate="no" dir="auto">
          {names.join(', ')}
        </span>
      ) : (
        <span className="min-w-0 truncate text-sm text-slate-500">{t('ui.file.none')}</span>
      )}
    </div>
  );
}

/** A file field: `onFile` gets the chosen file (or none); `ref` reaches the input, to empty it after a send. */
export function FileField({
  onFile,
  ref,
  accept,
  disabled,
  ...field
}: Omit<FieldProps, 'children' | 'onChange' | 'onValue' | 'type'> & {
  onFile: (file: File | null) => void;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <Field {...field}>
      {(wiring) => (
        <FilePicker
          {...wiring}
          ref={ref}
          accept={accept}
          disabled={disabled}
          onFiles={(files) => onFile(files[0] ?? null)}
        />
      )}
    </Field>
  );
}
