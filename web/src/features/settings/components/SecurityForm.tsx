import { ApiError } from '@api/client';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { useProviders } from '@lib/providers';
import type { User } from '@lib/session';
import { toast } from '@lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { NewPasswordFields } from '@ui/NewPasswordFields';
import { PasswordInput } from '@ui/PasswordInput';
import { type FormEvent, useState } from 'react';
import { useChangePassword } from '../api/account';
import { signInMethodsQuery, useSignInMethods } from '../api/sign-in-methods';
import { ConfirmWithSchool, useSchoolConfirmed } from './SchoolConfirm';

/** The account routes' request schemas: the new password is checked by the server's own rule. */
const contract = () => loadSchemas(() => import('@contract/users'));

/** What the form checks, keyed as the server's `fields` are (`confirm` is the form's own). */
type Passwords = { currentPassword?: string; newPassword: string; confirm: string };

export function SecurityForm({ user }: { user: User }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const methods = useSignInMethods();
  const providers = useProviders();
  const queryClient = useQueryClient();
  // An account made by a school sign-in has no password; it may choose one after confirming with the school.
  const noPassword = methods.data?.password === false;
  const [confirmed, setConfirmed] = useSchoolConfirmed('password');
  /** Each field's problem, under it: the contract's words before sending, the server's after a refusal. */
  const form = useForm({
    schema: async () => (await contract()).passwordBody,
    mutation: useChangePassword(),
    // The second typing is the form's own check: the server never sees it.
    also: (values: Passwords): Record<string, string> =>
      values.newPassword !== values.confirm ? { confirm: t('settings.security.mismatch') } : {},
    send: (values: Passwords) => ({ id: user._id, current: values.currentPassword, next: values.newPassword }),
  });
  const values: Passwords = { currentPassword: noPassword ? undefined : current, newPassword: next, confirm };
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    await form.submit(values, {
      onSuccess: () => {
        toast.success(t(noPassword ? 'settings.security.set' : 'settings.security.updated'));
        if (noPassword) {
          setConfirmed(false);
          void queryClient.invalidateQueries({ queryKey: signInMethodsQuery().queryKey });
        }
        setCurrent('');
        setNext('');
        setConfirm('');
      },
      onError: (error) => {
        const refused = error instanceof ApiError && error.status > 0;
        toast.error(t('settings.security.failed'), {
          description: refused ? error.message : undefined,
        });
      },
    });
  }
  if (noPassword && (!confirmed || providers.data?.password === false)) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">{t('settings.security.noPassword')}</p>
        {providers.data?.password && (
          <>
            <p className="text-sm text-slate-700">{t('settings.security.confirmFirst')}</p>
            <ConfirmWithSchool purpose="password" />
          </>
        )}
      </div>
    );
  }
  return (
    // noValidate: the contract's words under each field, rather than the browser's bubble (WebKit shows none).
    <form onSubmit={onSubmit} onFocus={form.prefetch} noValidate className="flex flex-col gap-4">
      {noPassword ? (
        <p className="text-sm text-slate-700">{t('settings.security.confirmed', { minutes: 5 })}</p>
      ) : (
        <PasswordInput
          label={t('settings.security.current')}
          name="currentPassword"
          value={current}
          onChange={(value) => {
            setCurrent(value);
            form.recheck({ ...values, currentPassword: value }, ['currentPassword']);
          }}
          autoComplete="current-password"
          problem={form.problems.currentPassword}
        />
      )}
      <NewPasswordFields
        password={next}
        confirm={confirm}
        onPassword={(value) => {
          setNext(value);
          form.recheck({ ...values, newPassword: value }, ['newPassword', 'confirm']);
        }}
        onConfirm={(value) => {
          setConfirm(value);
          form.recheck({ ...values, confirm: value }, ['confirm']);
        }}
        problems={{ password: form.problems.newPassword, confirm: form.problems.confirm }}
      />
      {/* The length rule is the new password's own hint: said once, where its problem would replace it. */}
      <p className="text-xs text-slate-600">{t('settings.security.othersOut')}</p>
      <button type="submit" className="btn btn-primary self-start" disabled={form.busy}>
        {t(
          form.busy
            ? 'settings.security.updating'
            : noPassword
              ? 'settings.security.submitSet'
              : 'settings.security.submit',
        )}
      </button>
    </form>
  );
}
