import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/query-client';
import { deleteAccount, type User } from '../../api/users';
import { toast } from '../../lib/toast';
import { useSession } from '../../state/session';
import { FormError } from '../FormError';
import { PasswordInput } from '../PasswordInput';

/** Deleting one's own account, confirmed with the password; says what goes with it. */
export function DeleteAccountForm({ user }: { user: User }) {
  const [password, setPassword] = useState('');
  const { signOut } = useSession();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => deleteAccount(user._id, password),
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
  return (
    <form onSubmit={onSubmit} className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6">
      <h3 className="font-semibold text-red-700">Delete my account</h3>
      <p className="text-sm text-slate-700">
        {user.role === 'teacher'
          ? 'Your classes, their lectures and videos, your comments and notes go with it, for good.'
          : 'Your classes stay; your comments, likes, notes and history go with your account, for good.'}
      </p>
      <PasswordInput
        label="Your password, to confirm"
        name="deletePassword"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
      />
      <FormError message={remove.isError ? errorMessage(remove.error) : ''} />
      <button type="submit" className="btn btn-danger self-start" disabled={remove.isPending || !password}>
        {remove.isPending ? 'Deleting...' : 'Delete my account'}
      </button>
    </form>
  );
}
