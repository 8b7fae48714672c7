import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../../src/contract/limits';
import { ApiError } from '../api/client';
import { AuthLayout } from '../app/AuthLayout';
import { schoolSignInUrl, useProviders } from '../features/auth/api/providers';
import { login, type Role, register } from '../features/auth/api/users';
import { useSession } from '../features/auth/state/session';
import { destinationAfterSignIn, schoolSignInNext } from '../lib/after-sign-in';
import { AUTH_TOAST_MS, REDIRECT_DELAY_MS, withTryAgain } from '../lib/messages';
import { pendingInvite } from '../lib/pending-invite';
import { toast } from '../lib/toast';
import { PasswordInput } from '../ui/PasswordInput';
import { Spinner } from '../ui/Spinner';

// Only a visitor who came by an invite link loads the banner (and the class API it asks): the sign-in page stays
// inside its transfer budget (bench:web).
// The code form comes after a submit: loaded then, not with the first page.
const VerifyEmailForm = lazy(() =>
  import('../features/auth/components/VerifyEmailForm').then((m) => ({ default: m.VerifyEmailForm })),
);
const InviteBanner = lazy(() =>
  import('../features/classes/components/InviteBanner').then((m) => ({ default: m.InviteBanner })),
);

/** One form for /login and /signup; it turns into the code form when the account needs verifying. */
export function AuthPage({ mode }: { mode: 'login' | 'signup' }) {
  const isSignup = mode === 'signup';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('student');
  const [busy, setBusy] = useState(false);
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  const { signIn } = useSession();
  const navigate = useNavigate();
  const providers = useProviders();

  const askForVerification = (address: string, message?: string) => {
    toast.info(message || 'Please verify your email', { duration: AUTH_TOAST_MS });
    setVerifyEmail(address);
  };

  async function onLogin() {
    let token: string;
    try {
      token = (await login(email, password)).token;
    } catch (error) {
      if (error instanceof ApiError && error.requiresVerification) return askForVerification(email, error.message);
      const message = error instanceof ApiError && error.status !== 0 ? error.message : 'Login failed';
      toast.error(withTryAgain(message), { duration: AUTH_TOAST_MS });
      return;
    }
    try {
      await signIn(token);
    } catch {
      toast.error(withTryAgain('Error fetching user data'), { duration: AUTH_TOAST_MS });
      return;
    }
    const { path, viaInvite } = destinationAfterSignIn();
    toast.success(viaInvite ? 'Login successful! Redirecting to join classroom...' : 'Login successful!', {
      duration: AUTH_TOAST_MS,
    });
    setTimeout(() => navigate(path), REDIRECT_DELAY_MS);
  }

  async function onRegister() {
    try {
      const answer = await register({ username, email, password, role });
      if (answer.requiresVerification) {
        toast.success('Registration successful! Please verify your email with the OTP sent.', {
          duration: AUTH_TOAST_MS,
        });
        setVerifyEmail(email);
      } else {
        toast.success('Registration successful! Please log in.', { duration: AUTH_TOAST_MS });
        setTimeout(() => navigate('/login'), REDIRECT_DELAY_MS);
      }
    } catch (error) {
      if (error instanceof ApiError && error.requiresVerification) return askForVerification(email, error.message);
      const message = error instanceof ApiError && error.status !== 0 ? error.message : 'Registration failed';
      toast.error(withTryAgain(message), { duration: AUTH_TOAST_MS });
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await (isSignup ? onRegister() : onLogin());
    } finally {
      setBusy(false);
    }
  }

  const form = (
    <>
      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
        {isSignup && (
          <div className="field">
            <label htmlFor="username">Name</label>
            <input
              id="username"
              name="username"
              className="input"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              autoComplete="name"
              required
              minLength={LIMITS.usernameMin}
              maxLength={LIMITS.usernameMax}
            />
          </div>
        )}
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            className="input"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoComplete="email"
            required
          />
        </div>
        <PasswordInput
          label="Password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete={isSignup ? 'new-password' : 'current-password'}
          minLength={isSignup ? LIMITS.passwordMin : undefined}
          hint={isSignup ? `At least ${LIMITS.passwordMin} characters.` : undefined}
        />
        {!isSignup && (
          <Link to="/forgot-password" className="link -mt-2 self-end text-sm">
            Forgot password?
          </Link>
        )}
        {isSignup && (
          <fieldset className="field">
            <legend className="mb-1.5 text-sm font-medium text-slate-700">I am a</legend>
            <div className="grid grid-cols-2 gap-2">
              {(['student', 'teacher'] as const).map((option) => (
                <label
                  key={option}
                  className={`flex h-11 cursor-pointer items-center justify-center gap-2 rounded-xl border text-sm font-medium capitalize has-focus-visible:outline-2 has-focus-visible:outline-indigo-500 ${
                    role === option
                      ? 'border-indigo-600 bg-indigo-50 text-indigo-700'
                      : 'border-slate-300 text-slate-600 hover:bg-slate-50'
                  }`}
                >
                  <input
                    type="radio"
                    name="role"
                    value={option}
                    checked={role === option}
                    onChange={() => setRole(option)}
                    className="sr-only"
                  />
                  {option}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy ? (isSignup ? 'Creating account...' : 'Logging in...') : isSignup ? 'Sign Up' : 'Log In'}
        </button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        {isSignup ? 'Already have an account? ' : "Don't have an account? "}
        <Link to={isSignup ? '/login' : '/signup'} className="link">
          {isSignup ? 'Log in' : 'Sign up'}
        </Link>
      </p>
    </>
  );

  if (verifyEmail) {
    return (
      <AuthLayout>
        <Suspense fallback={null}>
          <VerifyEmailForm email={verifyEmail.trim().toLowerCase()} onBack={() => setVerifyEmail(null)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      {pendingInvite.get() && (
        <Suspense fallback={null}>
          <InviteBanner signUp={isSignup} />
        </Suspense>
      )}
      <h1 className="auth-title">{isSignup ? 'Create an Account' : 'Welcome Back'}</h1>
      <p className="mt-2 text-center text-sm text-slate-600">
        {isSignup ? 'Join your classes and watch lectures anywhere.' : 'Log in to continue to your classes.'}
      </p>
      {!providers.data ? (
        providers.error ? (
          <div role="alert" className="mt-6 flex flex-col items-center gap-3 text-center text-sm text-red-800">
            <p>Could not load the ways to sign in. Check your connection.</p>
            <button type="button" className="btn btn-secondary" onClick={providers.retry}>
              Try again
            </button>
          </div>
        ) : (
          <div className="mt-6 flex justify-center">
            <Spinner label="Loading the ways to sign in" />
          </div>
        )
      ) : (
        <>
          {providers.data.oidc && (
            <a href={schoolSignInUrl(schoolSignInNext())} className="btn btn-secondary mt-6 w-full">
              {providers.data.oidc.label}
            </a>
          )}
          {providers.data.password ? (
            <>
              {providers.data.oidc && <p className="or-divider">or</p>}
              {form}
            </>
          ) : (
            <p className="mt-4 text-center text-sm text-slate-600">
              This school signs in with its school account{isSignup ? ': your account is made the first time.' : '.'}
            </p>
          )}
        </>
      )}
    </AuthLayout>
  );
}

export function LoginPage() {
  return <AuthPage key="login" mode="login" />;
}

export function SignupPage() {
  return <AuthPage key="signup" mode="signup" />;
}
