import { type FormEvent, useState } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { ApiError } from '../../../api/client';
import { loadSchemas, problemOf } from '../../../lib/form-check';
import { toast } from '../../../lib/toast';
import type { User } from '../../auth/api/users';
import { useChangeName } from '../api/account';

/** The account routes' request schemas: the name is checked by the server's own rule. */
const contract = () => loadSchemas(() => import('../../../../../src/contract/users'));

export function ProfileInfoForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [name, setName] = useState(user.username);
  const save = useChangeName();
  const busy = save.isPending;
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (await problemOf((await contract()).profileBody, { username: name })) {
      toast.error('Please enter a valid name', { duration: 3000 });
      return;
    }
    save.mutate(
      { id: user._id, username: name.trim() },
      {
        onSuccess: (updated) => {
          onSaved(updated);
          toast.success('Name updated successfully!', { duration: 3000 });
        },
        onError: (error) =>
          toast.error(
            error instanceof ApiError && error.status ? error.message : 'Failed to update name. Please try again.',
            { duration: 3000 },
          ),
      },
    );
  }
  return (
    <form onSubmit={onSubmit} onFocus={() => void contract()} className="flex flex-col gap-4" noValidate>
      <div className="field">
        <label htmlFor="profile-name">Name</label>
        <input
          id="profile-name"
          className="input"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={LIMITS.usernameMax}
          autoComplete="name"
        />
      </div>
      <div className="field">
        <label htmlFor="profile-email">Email</label>
        <input id="profile-email" className="input bg-slate-50 text-slate-500" value={user.email} readOnly />
      </div>
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {busy ? 'Saving...' : 'Save Name'}
      </button>
    </form>
  );
}
