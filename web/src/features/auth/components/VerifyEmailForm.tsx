import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../../../../src/contract/limits';
import { ApiError } from '../../../api/client';
import { destinationAfterSignIn } from '../../../lib/after-sign-in';
import { AUTH_TOAST_MS, REDIRECT_DELAY_MS } from '../../../lib/messages';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { resendOtp, verifyOtp } from '../api/users';
import { ChooseSignupPassword } from './ChooseSignupPassword';

/**
 * The code form: used at /verify-email and inside the login and sign-up screens. A code typed away from the
 * browser that signed up turns it into "Choose your password", which asks for the name and role too (the server's
 * `requiresPassword`).
 */
export function VerifyEmailForm({ email, onBack }: { email: string; onBack: () => void }) {
  const [otp, setOtp] = useState('');
  const [verifying, setVerifying] = useState(false);
  const [sending, setSending] = useState(false);
  /** The server's words when it asks for a password with this code; null while on the code step. */
  const [askedForPassword, setAskedForPassword] = useState<string | null>(null);
  const { signIn } = useSession();
  const navigate = useNavigate();

  async function onVerify(event: FormEvent) {
    event.preventDefault();
    if (!otp.trim()) {
      toast.error('Please enter the OTP sent to your email', { duration: AUTH_TOAST_MS });
      return;
    }
    setVerifying(true);
    let token: string;
    try {
      token = (await verifyOtp(email, otp.trim())).token;
    } catch (error) {
      setVerifying(false);
      if (error instanceof ApiError && error.body.requiresPassword === true) {
        setAskedForPassword(error.message);
        return;
      }
      toast.error(error instanceof ApiError ? error.message : 'Failed to verify OTP', { duration: AUTH_TOAST_MS });
      return;
    }
    await finish(token);
  }

  async function finish(token: string) {
    toast.success('Email verified successfully!', { duration: AUTH_TOAST_MS });
    try {
      await signIn(token);
      const { path } = destinationAfterSignIn();
      setTimeout(() => navigate(path), REDIRECT_DELAY_MS);
    } catch {
      toast.error('Verification successful, but failed to get user data. Please login.', { duration: AUTH_TOAST_MS });
      setTimeout(() => navigate('/login'), REDIRECT_DELAY_MS);
    }
  }

  async function onResend() {
    setSending(true);
    try {
      await resendOtp(email);
      toast.success('A new OTP has been sent to your email', { duration: AUTH_TOAST_MS });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : 'Failed to resend OTP', { duration: AUTH_TOAST_MS });
    } finally {
      setSending(false);
    }
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
      <h1 className="auth-title">Verify Your Email</h1>
      <p className="mt-2 text-center text-sm text-slate-600">
        We sent a 6-digit code to <strong className="text-slate-900 [overflow-wrap:anywhere]">{email}</strong>.
      </p>
      <form onSubmit={onVerify} className="mt-6 flex flex-col gap-4" noValidate>
        <div className="field">
          <label htmlFor="otp">Verification code</label>
          <input
            id="otp"
            name="otp"
            className="input text-center font-mono text-2xl tracking-[0.5em]"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={LIMITS.otpDigits}
            placeholder="••••••"
            value={otp}
            onChange={(event) => setOtp(event.target.value.replace(/[^\d\s]/g, ''))}
          />
        </div>
        <button type="submit" className="btn btn-primary w-full" disabled={verifying}>
          {verifying ? 'Verifying...' : 'Verify Email'}
        </button>
        <div className="flex gap-3">
          <button type="button" className="btn btn-secondary flex-1" onClick={onBack}>
            Go back
          </button>
          <button type="button" className="btn btn-secondary flex-1" onClick={onResend} disabled={sending}>
            {sending ? 'Sending...' : 'Send a new code'}
          </button>
        </div>
      </form>
    </div>
  );
}
