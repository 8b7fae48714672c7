import { t } from '@lib/i18n';
import type { Role } from '../api/users';

/** "I am a" student or teacher: the sign-up form's choice, and the choose-password form's when it is asked again. */
export function RoleChoice({ role, onChange }: { role: Role; onChange: (role: Role) => void }) {
  return (
    <fieldset className="field">
      <legend className="mb-1.5 text-sm font-medium text-slate-700">{t('auth.iAmA')}</legend>
      <div className="grid grid-cols-2 gap-2">
        {(['student', 'teacher'] as const).map((option) => (
          <label
            key={option}
            className={`flex h-11 cursor-pointer items-center justify-center gap-2 rounded-xl border text-sm font-medium capitalize has-focus-visible:outline-2 has-focus-visible:outline-indigo-500 ${
              role === option
                ? 'border-indigo-600 bg-indigo-50 text-indigo-700'
                : 'border-slate-300 text-slate-600 hover:bg-slate-50'
            }`}
          >
            <input
              type="radio"
              name="role"
              value={option}
              checked={role === option}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {t(option === 'teacher' ? 'common.role.teacher' : 'common.role.student')}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
