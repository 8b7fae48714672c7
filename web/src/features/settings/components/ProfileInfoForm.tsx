import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
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
          toast.success(t('settings.profile.saved'), { duration: 3000 });
        },
        onError: (error) =>
          toast.error(error instanceof ApiError && error.status ? error.message : t('settings.profile.failed'), {
            duration: 3000,
          }),
      },
    );
    if (!sent) toast.error(t('settings.profile.invalid'), { duration: 3000 });
  }
  return (
    <form onSubmit={onSubmit} onFocus={form.prefetch} className="flex flex-col gap-4" noValidate>
      <Field
        label={t('common.name')}
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
      <Field
        label={t('common.email')}
        id="profile-email"
        className="bg-slate-50 text-slate-500"
        value={user.email}
        translate="no"
        readOnly
      />
      <button type="submit" className="btn btn-primary self-start" disabled={form.busy}>
        {t(form.busy ? 'common.saving' : 'settings.profile.submit')}
      </button>
    </form>
  );
}
