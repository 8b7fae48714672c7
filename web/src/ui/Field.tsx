import { t } from '@lib/i18n';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { FieldProblem } from './FieldProblem';

/** What ties a control to its field: its id, the hint or problem it is read with, and whether it is wrong. */
export type FieldWiring = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true };

export type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
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
