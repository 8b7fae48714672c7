import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { AUTH_TOAST_MS, withTryAgain } from '@lib/messages';
import { toast } from '@lib/toast';
import { useMutation } from '@tanstack/react-query';
import { EmailField, Field } from '@ui/Field';
import { PasswordInput } from '@ui/PasswordInput';
import type { FormEvent } from 'react';
import { type Role, register } from '../api/users';
import { RoleChoice } from './RoleChoice';

/** The account routes' request schemas, loaded when a field is first focused: the sign-up is checked by them. */
const contract = () => loadSchemas(() => import('@contract/users'));

/** What the sign-up form holds: kept by the page, so going back from the code form finds it as it was. */
export type SignUpValues = { username: string; email: string; password: string; role: Role };

/**
 * The sign-up form of /signup (loaded with that page only, so the sign-in page stays inside its budget). Each
 * field's problem is said under it in the server's own words before anything is sent; a refusal still shows.
 * `onVerify`: the account waits for the code mailed to this address.
 */
export function SignupForm({
  values,
  onChange,
  onVerify,
}: {
  values: SignUpValues;
  onChange: (values: SignUpValues) => void;
  onVerify: (email: string) => void;
}) {
  const { email, password, role } = values;
  const form = useForm({
    schema: async () => (await contract()).registerBody,
    mutation: useMutation({ mutationFn: register, meta: { quiet: true } }),
  });
  const set =
    <Key extends keyof SignUpValues>(field: Key) =>
    (value: SignUpValues[Key]) => {
      const next = { ...values, [field]: value };
      onChange(next);
      // A field said to be wrong is checked again as it is typed: its problem goes (its hint comes back) once fixed.
      form.recheck(next, [field]);
    };

  /** A text field's value, wiring and problem, by the name the server's `fields` use. */
  const text = (key: 'username' | 'email') => ({
    id: key,
    name: key,
    required: true,
    ...form.bind(key, values[key], set(key)),
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    await form.submit(values, {
      onSuccess: () => {
        toast.success(t('signup.registered'), {
          duration: AUTH_TOAST_MS,
        });
        onVerify(email);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.requiresVerification) {
          toast.info(error.message || t('auth.pleaseVerify'), { duration: AUTH_TOAST_MS });
          onVerify(email);
          return;
        }
        const message = error instanceof ApiError && error.status !== 0 ? error.message : t('signup.failed');
        toast.error(withTryAgain(message), { duration: AUTH_TOAST_MS });
      },
    });
  }

  return (
    // noValidate: the contract's words under each field, rather than the browser's bubble (WebKit shows none).
    <form onSubmit={onSubmit} onFocus={form.prefetch} noValidate className="mt-6 flex flex-col gap-4">
      <Field
        label={t('common.name')}
        {...text('username')}
        autoComplete="name"
        minLength={LIMITS.usernameMin}
        maxLength={LIMITS.usernameMax}
      />
      <EmailField {...text('email')} />
      <PasswordInput
        label={t('auth.password')}
        name="password"
        value={password}
        onChange={set('password')}
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        hint={t('ui.passwordMinHint', { count: LIMITS.passwordMin })}
        problem={form.problems.password}
      />
      <RoleChoice role={role} onChange={set('role')} />
      <button type="submit" className="btn btn-primary mt-2 w-full" disabled={form.busy}>
        {t(form.busy ? 'signup.creating' : 'signup.submit')}
      </button>
    </form>
  );
}
