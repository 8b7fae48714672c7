import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import type { User } from '@lib/session';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { type FormEvent, useState } from 'react';
import { useChangeName } from '../api/account';

/** The account routes' request schemas: the name is checked by the server's own rule. */
const contract = () => loadSchemas(() => import('@contract/users'));

export function ProfileInfoForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [name, setName] = useState(user.username);
  const form = useForm({
    schema: async () => (await contract()).profileBody,
    mutation: useChangeName(),
    send: ({ username }: { username: string }) => ({ id: user._id, username: username.trim() }),
  });
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const sent = await form.submit(
      { username: name },
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
    if (!sent) toast.error('Please enter a valid name', { duration: 3000 });
  }
  return (
    <form onSubmit={onSubmit} onFocus={form.prefetch} className="flex flex-col gap-4" noValidate>
      <Field
        label="Name"
        id="profile-name"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          form.recheck({ username: event.target.value });
        }}
        maxLength={LIMITS.usernameMax}
        autoComplete="name"
        problem={form.problems.username}
      />
      <Field label="Email" id="profile-email" className="bg-slate-50 text-slate-500" value={user.email} readOnly />
      <button type="submit" className="btn btn-primary self-start" disabled={form.busy}>
        {form.busy ? 'Saving...' : 'Save Name'}
      </button>
    </form>
  );
}
