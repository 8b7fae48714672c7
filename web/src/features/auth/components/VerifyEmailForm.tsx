import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { destinationAfterSignIn } from '@lib/after-sign-in';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { rich, t } from '@lib/i18n';
import { AUTH_TOAST_MS, REDIRECT_DELAY_MS } from '@lib/messages';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { useMutation } from '@tanstack/react-query';
import { Field } from '@ui/Field';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { resendOtp, verifyOtp } from '../api/users';
import { ChooseSignupPassword } from './ChooseSignupPassword';

/** The account routes' request schemas: the code is checked by the server's own rule before it is sent. */
const contract = () => loadSchemas(() => import('@contract/users'));

/**
 * The code form: used at /verify-email and inside the login and sign-up screens. A code typed away from the
 * browser that signed up turns it into "Choose your password", which asks for the name and role too (the server's
 * `requiresPassword`).
 */
export function VerifyEmailForm({ email, onBack }: { email: string; onBack: () => void }) {
  const [otp, setOtp] = useState('');
  /** The server's words when it asks for a password with this code; null while on the code step. */
  const [askedForPassword, setAskedForPassword] = useState<string | null>(null);
  const { signIn } = useSession();
  const navigate = useNavigate();
  const form = useForm({
    schema: async () => (await contract()).verifyBody,
    // Busy until the session is in place and the page moves on.
    mutation: useMutation({
      mutationFn: async (code: { email: string; otp: string }) => finish((await verifyOtp(code.email, code.otp)).token),
      meta: { quiet: true },
    }),
  });
  const resend = useMutation({ mutationFn: () => resendOtp(email), meta: { quiet: true } });

  async function onVerify(event: FormEvent) {
    event.preventDefault();
    if (!otp.trim()) {
      toast.error(t('verify.enterCode'), { duration: AUTH_TOAST_MS });
      return;
    }
    await form.submit(
      { email, otp: otp.trim() },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.body.requiresPassword === true) {
            setAskedForPassword(error.message);
            return;
          }
          toast.error(error instanceof ApiError ? error.message : t('verify.failed'), { duration: AUTH_TOAST_MS });
        },
      },
    );
  }

  async function finish(token: string) {
    toast.success(t('verify.verified'), { duration: AUTH_TOAST_MS });
    try {
      await signIn(token);
      const { path } = destinationAfterSignIn();
      setTimeout(() => navigate(path), REDIRECT_DELAY_MS);
    } catch {
      toast.error(t('verify.userDataFailed'), { duration: AUTH_TOAST_MS });
      setTimeout(() => navigate('/login'), REDIRECT_DELAY_MS);
    }
  }

  function onResend() {
    resend.mutate(undefined, {
      onSuccess: () => toast.success(t('verify.resent'), { duration: AUTH_TOAST_MS }),
      onError: (error) =>
        toast.error(error instanceof ApiError ? error.message : t('verify.resendFailed'), { duration: AUTH_TOAST_MS }),
    });
  }

  if (askedForPassword !== null) {
    return (
      <ChooseSignupPassword
        email={email}
        otp={otp.trim()}
        message={askedForPassword}
        onVerified={finish}
        onBack={() => setAskedForPassword(null)}
      />
    );
  }

  return (
    <div>
      <h1 className="auth-title">{t('verify.heading')}</h1>
      <p className="mt-2 text-center text-sm text-slate-600">
        {rich(t('verify.codeSent', { email, digits: LIMITS.otpDigits }), [
          (words) => (
            <strong key="email" className="text-slate-900 [overflow-wrap:anywhere]" translate="no">
              {words}
            </strong>
          ),
        ])}
      </p>
      <form onSubmit={onVerify} onFocus={form.prefetch} className="mt-6 flex flex-col gap-4" noValidate>
        <Field
          label={t('verify.codeLabel')}
          id="otp"
          name="otp"
          className="text-center font-mono text-2xl tracking-[0.5em]"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.otpDigits}
          placeholder="••••••"
          value={otp}
          onChange={(event) => setOtp(event.target.value.replace(/[^\d\s]/g, ''))}
          problem={form.problems.otp}
        />
        <button type="submit" className="btn btn-primary w-full" disabled={form.busy}>
          {t(form.busy ? 'verify.verifying' : 'verify.submit')}
        </button>
        <div className="flex gap-3">
          <button type="button" className="btn btn-secondary flex-1" onClick={onBack}>
            {t('common.goBack')}
          </button>
          <button type="button" className="btn btn-secondary flex-1" onClick={onResend} disabled={resend.isPending}>
            {t(resend.isPending ? 'forgot.sending' : 'verify.resend')}
          </button>
        </div>
      </form>
    </div>
  );
}
