import { errorMessage } from '@api/query-client';
import { LIMITS } from '@contract/limits';
import { destinationAfterSignIn } from '@lib/after-sign-in';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { rich, t } from '@lib/i18n';
import { AUTH_TOAST_MS, REDIRECT_DELAY_MS } from '@lib/messages';
import { useProviders } from '@lib/providers';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { usePageTitle } from '@lib/use-page-title';
import { useMutation } from '@tanstack/react-query';
import { EmailField, Field } from '@ui/Field';
import { FormError } from '@ui/FormError';
import { NewPasswordFields } from '@ui/NewPasswordFields';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';
import { forgotPassword, resetPassword } from '../features/auth/api/users';
import { SchoolOnlyNotice } from '../features/auth/components/SchoolOnlyNotice';

/** The account routes' request schemas: each form is checked by the server's own rules before it is sent. */
const contract = () => loadSchemas(() => import('@contract/users'));

/** "Forgot password?": the address, then the emailed code with a new password. Signs the user in. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const ask = useMutation({ mutationFn: forgotPassword, meta: { quiet: true } });
  const askForm = useForm({
    schema: async () => (await contract()).emailBody,
    mutation: ask,
    send: (values: { email: string }) => values.email,
  });
  const providers = useProviders();
  usePageTitle(t(sentTo ? 'forgot.title.choose' : 'forgot.title.reset'));

  function onAsk(event: FormEvent) {
    event.preventDefault();
    void askForm.submit({ email }, { onSuccess: () => setSentTo(email.trim().toLowerCase()) });
  }

  return (
    <AuthLayout>
      {providers.data?.password === false ? (
        <SchoolOnlyNotice title={t('forgot.noPassword')} providers={providers.data} />
      ) : sentTo ? (
        <ResetForm email={sentTo} onBack={() => setSentTo(null)} />
      ) : (
        <>
          <h1 className="auth-title">{t('forgot.heading.reset')}</h1>
          <p className="mt-2 text-center text-sm text-slate-600">{t('forgot.lead')}</p>
          <form onSubmit={onAsk} onFocus={askForm.prefetch} className="mt-6 flex flex-col gap-4">
            <EmailField id="reset-email" value={email} onValue={setEmail} problem={askForm.problems.email} />
            <FormError message={ask.isError ? errorMessage(ask.error) : ''} />
            <button type="submit" className="btn btn-primary w-full" disabled={ask.isPending}>
              {t(ask.isPending ? 'forgot.sending' : 'forgot.sendCode')}
            </button>
          </form>
          <p className="mt-6 text-center text-sm text-slate-600">
            <Link to="/login" className="link">
              {t('forgot.backToLogin')}
            </Link>
          </p>
        </>
      )}
    </AuthLayout>
  );
}

function ResetForm({ email, onBack }: { email: string; onBack: () => void }) {
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { signIn } = useSession();
  const navigate = useNavigate();
  const reset = useMutation({
    mutationFn: (body: { otp: string; newPassword: string }) => resetPassword(email, body.otp, body.newPassword),
    meta: { quiet: true },
    onSuccess: async ({ token }) => {
      toast.success(t('forgot.changed'), { duration: AUTH_TOAST_MS });
      await signIn(token);
      setTimeout(() => navigate(destinationAfterSignIn().path), REDIRECT_DELAY_MS);
    },
  });

  const form = useForm({
    schema: async () => (await contract()).resetBody,
    mutation: reset,
    // The second typing is the form's own check: the server never sees it.
    also: (values: { confirm: string; newPassword: string }): Record<string, string> =>
      values.newPassword !== values.confirm ? { confirm: t('forgot.mismatch') } : {},
    send: ({ otp, newPassword }: { email: string; otp: string; newPassword: string; confirm: string }) => ({
      otp,
      newPassword,
    }),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void form.submit({ email, otp: otp.trim(), newPassword: password, confirm });
  }

  return (
    <>
      <h1 className="auth-title">{t('forgot.heading.choose')}</h1>
      <p className="mt-2 text-center text-sm text-slate-600">
        {rich(t('forgot.codeSent', { email, digits: LIMITS.otpDigits }), [
          (words) => (
            <strong key="email" className="text-slate-900 [overflow-wrap:anywhere]" translate="no">
              {words}
            </strong>
          ),
        ])}
      </p>
      <form onSubmit={onSubmit} onFocus={form.prefetch} className="mt-6 flex flex-col gap-4">
        <Field
          label={t('forgot.codeLabel')}
          id="reset-code"
          className="text-center font-mono text-xl tracking-[0.4em]"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.otpDigits}
          value={otp}
          onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
          required
          problem={form.problems.otp}
        />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          problems={{ password: form.problems.newPassword, confirm: form.problems.confirm }}
        />
        <FormError message={reset.isError ? errorMessage(reset.error) : ''} />
        <button type="submit" className="btn btn-primary w-full" disabled={reset.isPending}>
          {t(reset.isPending ? 'common.saving' : 'forgot.setPassword')}
        </button>
        <button type="button" className="btn btn-secondary w-full" onClick={onBack}>
          {t('common.goBack')}
        </button>
      </form>
    </>
  );
}
