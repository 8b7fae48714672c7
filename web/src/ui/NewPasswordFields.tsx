import { LIMITS } from '@contract/limits';
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
        label="New password"
        name="newPassword"
        value={password}
        onChange={onPassword}
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        hint={`At least ${LIMITS.passwordMin} characters.`}
        problem={problems.password}
      />
      <PasswordInput
        label="Confirm new password"
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
