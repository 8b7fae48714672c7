import { t } from '@lib/i18n';
import { useState } from 'react';
import { Field } from './Field';

/** The show/hide eye, drawn here rather than taken from icons.tsx: the sign-in page then loads no icon chunk. */
function Eye({ crossed }: { crossed: boolean }) {
  return (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {crossed ? (
        <>
          <path d="M9.9 4.2A10.8 10.8 0 0 1 12 4c6.4 0 10 8 10 8a18.4 18.4 0 0 1-2.2 3.2M6.6 6.6A18 18 0 0 0 2 12s3.6 8 10 8a9.7 9.7 0 0 0 5.4-1.6" />
          <path d="m2 2 20 20M9.9 9.9a3 3 0 0 0 4.2 4.2" />
        </>
      ) : (
        <>
          <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
          <circle cx="12" cy="12" r="3" />
        </>
      )}
    </svg>
  );
}

export function PasswordInput({
  label,
  value,
  onChange,
  autoComplete,
  name,
  minLength,
  hint,
  problem,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  name: string;
  minLength?: number;
  /** A rule the password must follow, shown under the field and read with it while there is no problem. */
  hint?: string;
  /** What is wrong with the value, in the contract's words: shown under the field in the hint's place, read with it. */
  problem?: string;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <Field label={label} hint={hint} problem={problem}>
      {(wiring) => (
        <div className="relative">
          <input
            {...wiring}
            name={name}
            type={visible ? 'text' : 'password'}
            className="input pe-11 aria-invalid:border-red-500"
            value={value}
            onChange={(event) => onChange(event.target.value)}
            autoComplete={autoComplete}
            minLength={minLength}
            required
          />
          <button
            type="button"
            className="absolute inset-y-0 end-0 flex w-11 items-center justify-center text-slate-500 hover:text-slate-800"
            onClick={() => setVisible((shown) => !shown)}
            aria-label={t(visible ? 'ui.hidePassword' : 'ui.showPassword')}
            aria-pressed={visible}
          >
            <Eye crossed={visible} />
          </button>
        </div>
      )}
    </Field>
  );
}
