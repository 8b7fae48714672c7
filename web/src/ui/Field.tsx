import { t } from '@lib/i18n';
import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { FieldProblem } from './FieldProblem';

/** What ties a control to its field: its id, the hint or problem it is read with, and whether it is wrong. */
export type FieldWiring = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true };

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
  label: ReactNode;
  /** `sr-only` for a field whose purpose the page already shows (a comment box). */
  labelClassName?: string;
  /** A rule the value must follow, read with the control while there is no problem. */
  hint?: ReactNode;
  problem?: string;
  children?: (wiring: FieldWiring) => ReactNode;
  /** The new text as it is typed (in place of `onChange`). */
  onValue?: (value: string) => void;
};

/**
 * A form's field: label, control, hint and problem (in the server's words, under the field, in the hint's place).
 * Renders an `input` with the other props, or whatever `children` draws with the wiring (a textarea, a select).
 */
export function Field({
  label,
  labelClassName,
  hint,
  problem,
  id: givenId,
  className = '',
  children,
  onValue,
  ...input
}: FieldProps) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const wiring: FieldWiring = {
    id,
    'aria-describedby': problem ? `${id}-problem` : hint ? `${id}-hint` : undefined,
    'aria-invalid': problem ? true : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      {children ? (
        children(wiring)
      ) : (
        <input
          className={`input aria-invalid:border-red-500 ${className}`.trim()}
          onChange={onValue && ((event) => onValue(event.target.value))}
          {...input}
          {...wiring}
        />
      )}
      {/* One line under the field: the problem says the rule again in its own words, so it takes the hint's place. */}
      {problem ? (
        <FieldProblem id={`${id}-problem`} message={problem} />
      ) : (
        hint && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/** The email address field of the account forms. */
export function EmailField(props: Omit<FieldProps, 'label' | 'type'>) {
  return <Field label={t('common.email')} type="email" autoComplete="email" required {...props} />;
}

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
