import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../../src/contract/limits';
import { errorMessage } from '../api/query-client';
import { AuthLayout } from '../app/AuthLayout';
import { forgotPassword, resetPassword } from '../features/auth/api/users';
import { NewPasswordFields } from '../ui/NewPasswordFields';
import { SchoolOnlyNotice } from '../features/auth/components/SchoolOnlyNotice';
import { destinationAfterSignIn } from '../lib/after-sign-in';
import { AUTH_TOAST_MS, REDIRECT_DELAY_MS } from '../lib/messages';
import { useProviders } from '../lib/providers';
import { useSession } from '../lib/session';
import { toast } from '../lib/toast';
import { usePageTitle } from '../lib/use-page-title';
import { FormError } from '../ui/FormError';

/** "Forgot password?": the address, then the emailed code with a new password. Signs the user in. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const ask = useMutation({ mutationFn: forgotPassword, meta: { quiet: true } });
  const providers = useProviders();
  usePageTitle(sentTo ? 'Choose a new password' : 'Reset your password');

  function onAsk(event: FormEvent) {
    event.preventDefault();
    ask.mutate(email, { onSuccess: () => setSentTo(email.trim().toLowerCase()) });
  }

  return (
    <AuthLayout>
      {providers.data?.password === false ? (
        <SchoolOnlyNotice title="There is no password to reset" providers={providers.data} />
      ) : sentTo ? (
        <ResetForm email={sentTo} onBack={() => setSentTo(null)} />
      ) : (
        <>
          <h1 className="auth-title">Reset your password</h1>
          <p className="mt-2 text-center text-sm text-slate-600">
            Enter the address you signed up with. We will email you a code to choose a new password.
          </p>
          <form onSubmit={onAsk} className="mt-6 flex flex-col gap-4">
            <div className="field">
              <label htmlFor="reset-email">Email</label>
              <input
                id="reset-email"
                type="email"
                className="input"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                autoComplete="email"
                required
              />
            </div>
            <FormError message={ask.isError ? errorMessage(ask.error) : ''} />
            <button type="submit" className="btn btn-primary w-full" disabled={ask.isPending}>
              {ask.isPending ? 'Sending...' : 'Send code'}
            </button>
          </form>
          <p className="mt-6 text-center text-sm text-slate-600">
            <Link to="/login" className="link">
              Back to login
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
  const [mismatch, setMismatch] = useState(false);
  const [confirm, setConfirm] = useState('');
  const { signIn } = useSession();
  const navigate = useNavigate();
  const reset = useMutation({
    mutationFn: () => resetPassword(email, otp.trim(), password),
    meta: { quiet: true },
    onSuccess: async ({ token }) => {
      toast.success('Your password is changed. Every other device was signed out.', { duration: AUTH_TOAST_MS });
      await signIn(token);
      setTimeout(() => navigate(destinationAfterSignIn().path), REDIRECT_DELAY_MS);
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setMismatch(password !== confirm);
    if (password === confirm) reset.mutate();
  }

  return (
    <>
      <h1 className="auth-title">Choose a new password</h1>
      <p className="mt-2 text-center text-sm text-slate-600">
        If an account uses <strong className="text-slate-900 [overflow-wrap:anywhere]">{email}</strong>, we sent it a
        6-digit code.
      </p>
      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
        <div className="field">
          <label htmlFor="reset-code">Code from the email</label>
          <input
            id="reset-code"
            className="input text-center font-mono text-xl tracking-[0.4em]"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={LIMITS.otpDigits}
            value={otp}
            onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
            required
          />
        </div>
        <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
        <FormError message={mismatch ? "The passwords don't match." : reset.isError ? errorMessage(reset.error) : ''} />
        <button type="submit" className="btn btn-primary w-full" disabled={reset.isPending}>
          {reset.isPending ? 'Saving...' : 'Set new password'}
        </button>
        <button type="button" className="btn btn-secondary w-full" onClick={onBack}>
          Go back
        </button>
      </form>
    </>
  );
}
