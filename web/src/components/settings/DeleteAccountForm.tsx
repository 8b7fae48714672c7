import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/query-client';
import { useSignInMethods } from '../../api/sign-in-methods';
import { deleteAccount, type User } from '../../api/users';
import { toast } from '../../lib/toast';
import { useSession } from '../../state/session';
import { ConfirmDialog } from '../ConfirmDialog';
import { FormError } from '../FormError';
import { PasswordInput } from '../PasswordInput';
import { ConfirmWithSchool, useSchoolConfirmed } from './SchoolConfirm';

/**
 * Deleting one's own account, confirmed with the password; says what goes with it. An account made by school
 * sign-in has no password: it confirms with the school account, and comes back to a dialog ready to delete.
 */
export function DeleteAccountForm({ user }: { user: User }) {
  const [password, setPassword] = useState('');
  const { signOut } = useSession();
  const navigate = useNavigate();
  const methods = useSignInMethods();
  const schoolOnly = methods.data?.password === false;
  const [confirmed, setConfirmed] = useSchoolConfirmed('delete');
  const remove = useMutation({
    mutationFn: () => deleteAccount(user._id, schoolOnly ? undefined : password),
    meta: { quiet: true },
    onSuccess: () => {
      navigate('/login');
      signOut();
      toast.success('Your account was deleted.');
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate();
  };
  const whatGoes =
    user.role === 'teacher'
      ? 'Your classes, their lectures and videos, your comments and notes go with it, for good.'
      : 'Your classes stay; your comments, likes, notes and history go with your account, for good.';
  const failed = remove.isError ? errorMessage(remove.error) : '';
  if (schoolOnly) {
    return (
      <section aria-labelledby="delete-account" className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6">
        <h3 id="delete-account" className="font-semibold text-red-700">
          Delete my account
        </h3>
        <p className="text-sm text-slate-700">{whatGoes}</p>
        <p className="text-sm text-slate-700">
          Your account has no password, so first confirm it is you by signing in with your school account again.
        </p>
        <FormError message={confirmed ? '' : failed} />
        <ConfirmWithSchool purpose="delete" danger />
        <ConfirmDialog
          open={confirmed}
          title="Delete your account?"
          confirmLabel="Delete my account"
          busyLabel="Deleting..."
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onClose={() => setConfirmed(false)}
        >
          <p>You confirmed with your school account. This confirmation lasts 5 minutes.</p>
          <p className="mt-2">{whatGoes}</p>
          <p className="mt-2">Signing in with your school account later makes a new, empty account.</p>
          <div className="mt-2">
            <FormError message={failed} />
          </div>
        </ConfirmDialog>
      </section>
    );
  }
  return (
    <form onSubmit={onSubmit} className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6">
      <h3 className="font-semibold text-red-700">Delete my account</h3>
      <p className="text-sm text-slate-700">{whatGoes}</p>
      <PasswordInput
        label="Your password, to confirm"
        name="deletePassword"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
      />
      <FormError message={failed} />
      <button type="submit" className="btn btn-danger self-start" disabled={remove.isPending || !password}>
        {remove.isPending ? 'Deleting...' : 'Delete my account'}
      </button>
    </form>
  );
}
