import { LIMITS } from '../../../../../src/contract/limits';
import { PasswordInput } from '../../../ui/PasswordInput';

/** "New password" and "Confirm new password", for the Security tab and the password reset. */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
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
      />
      <PasswordInput
        label="Confirm new password"
        name="confirmPassword"
        value={confirm}
        onChange={onConfirm}
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
      />
    </>
  );
}
