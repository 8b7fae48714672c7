import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { rich, t } from '@lib/i18n';
import { useMutation } from '@tanstack/react-query';
import { Field } from '@ui/Field';
import { FormError } from '@ui/FormError';
import { NewPasswordFields } from '@ui/NewPasswordFields';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Role, verifyOtp } from '../api/users';
import { RoleChoice } from './RoleChoice';

/** The account routes' request schemas: the password is checked by the server's own rule. */
const contract = () => loadSchemas(() => import('@contract/users'));

/**
 * The code was right but typed away from the browser that signed up: the name, role and password typed there are
 * not trusted (docs/accounts.md, "sign-up takeover"), so the owner of the mailbox gives them now, with the same code.
 */
/** What is sent with the code when the server asks for it. */
type Chosen = { email: string; otp: string; username: string; role: Role; password: string };

export function ChooseSignupPassword({
  email,
  otp,
  message,
  onVerified,
  onBack,
}: {
  email: string;
  otp: string;
  /** The server's words for why it asks. */
  message: string;
  onVerified: (token: string) => Promise<void>;
  onBack: () => void;
}) {
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('student');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  // The form changed under the user's hands: tell a screen reader where they are.
  useEffect(() => heading.current?.focus(), []);
  const form = useForm({
    schema: async () => (await contract()).verifyBody,
    // Busy until the session is in place: the page moves on from here.
    mutation: useMutation({
      mutationFn: async (chosen: Chosen) => onVerified((await verifyOtp(email, otp, chosen)).token),
      meta: { quiet: true },
    }),
    also: (values: Chosen & { confirm: string }): Record<string, string> =>
      values.password !== values.confirm ? { confirm: t('forgot.mismatch') } : {},
    send: ({ confirm: _, ...chosen }) => chosen,
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Checked here, in words, rather than by the browser's own bubble (WebKit shows none): the last error goes.
    setError('');
    await form.submit(
      { email, otp, username, role, password, confirm },
      {
        onError: (failure) => setError(failure instanceof ApiError ? failure.message : t('choose.failed')),
      },
    );
  }

  return (
    <div>
      <h1 ref={heading} tabIndex={-1} className="auth-title outline-none">
        {t('choose.heading')}
      </h1>
      <p className="mt-2 text-center text-sm text-slate-600">{message}</p>
      <p className="mt-2 text-center text-sm text-slate-600">
        {rich(t('choose.lead', { email }), [
          (words) => (
            <strong key="email" className="text-slate-900 [overflow-wrap:anywhere]" translate="no">
              {words}
            </strong>
          ),
        ])}
      </p>
      <form noValidate onSubmit={onSubmit} onFocus={form.prefetch} className="mt-6 flex flex-col gap-4">
        <Field
          label={t('common.name')}
          id="choose-username"
          name="username"
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            form.recheck({ email, otp, username: event.target.value, role, password, confirm }, ['username']);
          }}
          autoComplete="name"
          required
          minLength={LIMITS.usernameMin}
          maxLength={LIMITS.usernameMax}
          problem={form.problems.username}
        />
        <RoleChoice role={role} onChange={setRole} />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          // The rule in this page's own words: the length both ways, as the server's 400 gives it in `fields`.
          problems={{
            password:
              form.problems.password &&
              t('choose.passwordLength', { min: LIMITS.passwordMin, max: LIMITS.passwordMax }),
            confirm: form.problems.confirm,
          }}
        />
        <FormError message={error} />
        <button type="submit" className="btn btn-primary w-full" disabled={form.busy}>
          {t(form.busy ? 'common.saving' : 'choose.submit')}
        </button>
        <button type="button" className="btn btn-secondary w-full" onClick={onBack}>
          {t('common.goBack')}
        </button>
      </form>
    </div>
  );
}
