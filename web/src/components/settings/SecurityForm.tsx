import { type FormEvent, useState } from 'react';
import { LIMITS } from '../../../../src/contract/limits';
import { ApiError } from '../../api/client';
import { useSignInMethods } from '../../api/sign-in-methods';
import { type User, useChangePassword } from '../../api/users';
import { toast } from '../../lib/toast';
import { NewPasswordFields } from '../NewPasswordFields';
import { PasswordInput } from '../PasswordInput';

export function SecurityForm({ user }: { user: User }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const change = useChangePassword();
  const busy = change.isPending;
  const methods = useSignInMethods();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (next !== confirm) {
      toast.error("New passwords don't match");
      return;
    }
    change.mutate(
      { id: user._id, current, next },
      {
        onSuccess: () => {
          toast.success('Password updated successfully');
          setCurrent('');
          setNext('');
          setConfirm('');
        },
        onError: (error) =>
          toast.error('Failed to update password. Please try again.', {
            description: error instanceof ApiError && error.status ? error.message : undefined,
          }),
      },
    );
  }
  // An account made by a school sign-in has no password to change.
  if (methods.data && !methods.data.password) {
    return (
      <p className="text-sm text-slate-700">
        Your account has no password: you sign in with your school account (see Linked sign-in).
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <PasswordInput
        label="Current password"
        name="currentPassword"
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
      />
      <NewPasswordFields password={next} confirm={confirm} onPassword={setNext} onConfirm={setConfirm} />
      <p className="text-xs text-slate-600">
        At least {LIMITS.passwordMin} characters. Other devices will be signed out; this one stays signed in.
      </p>
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {busy ? 'Updating...' : 'Update Password'}
      </button>
    </form>
  );
}
