import { LIMITS } from '@contract/limits';
import { t } from '@lib/i18n';
import { PasswordInput } from './PasswordInput';

/**
 * "New password" and "Confirm new password", for the Security tab and the password reset; `problems` are said
 * under each field (the new password's in the contract's words).
 */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  problems = {},
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  problems?: { password?: string; confirm?: string };
}) {
  return (
    <>
      <PasswordInput
        label={t('ui.newPassword')}
        name="newPassword"
        value={password}
        onChange={onPassword}
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        hint={t('ui.passwordMinHint', { count: LIMITS.passwordMin })}
        problem={problems.password}
      />
      <PasswordInput
        label={t('ui.confirmNewPassword')}
        name="confirmPassword"
        value={confirm}
        onChange={onConfirm}
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        problem={problems.confirm}
      />
    </>
  );
}
