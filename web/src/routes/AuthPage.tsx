import { ApiError } from '@api/client';
import { destinationAfterSignIn, schoolSignInNext } from '@lib/after-sign-in';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { rich, t } from '@lib/i18n';
import { lazyPart } from '@lib/lazy-page';
import { AUTH_TOAST_MS, REDIRECT_DELAY_MS, withTryAgain } from '@lib/messages';
import { pendingInvite } from '@lib/pending-invite';
import { schoolSignInUrl, useProviders } from '@lib/providers';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { usePageTitle } from '@lib/use-page-title';
import { useMutation } from '@tanstack/react-query';
import { EmailField } from '@ui/Field';
import { FormError } from '@ui/FormError';
import { PasswordInput } from '@ui/PasswordInput';
import { Spinner } from '@ui/Spinner';
import { type FormEvent, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';
import { login } from '../features/auth/api/users';
import type { SignUpValues } from '../features/auth/components/SignupForm';

// Only a visitor who came by an invite link loads the banner (and the class API it asks): the sign-in page stays
// inside its transfer budget (bench:web).
// The code form comes after a submit: loaded then, not with the first page.
const VerifyEmailForm = lazyPart(() =>
  import('../features/auth/components/VerifyEmailForm').then((m) => m.VerifyEmailForm),
);
const InviteBanner = lazyPart(() => import('../features/classes/components/InviteBanner').then((m) => m.InviteBanner));
// The sign-up form comes with /signup only (its fields and checks are no part of the sign-in page's budget).
const loadSignupForm = () => import('../features/auth/components/SignupForm');
const SignupForm = lazyPart(() => loadSignupForm().then((m) => m.SignupForm));

/** The sign-in form at /login, the sign-up form at /signup; it turns into the code form when the account needs verifying. */
export function AuthPage({ mode }: { mode: 'login' | 'signup' }) {
  const isSignup = mode === 'signup';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  /** Why the last sign-in failed, kept under the form after the toast has gone. */
  const [loginError, setLoginError] = useState('');
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  const [signUp, setSignUp] = useState<SignUpValues>({ username: '', email: '', password: '', role: 'student' });
  const { signIn } = useSession();
  const navigate = useNavigate();
  const providers = useProviders();
  usePageTitle(t(verifyEmail ? 'auth.title.verify' : isSignup ? 'auth.title.signUp' : 'auth.title.signIn'));
  // Asked for beside the ways to sign in, not after them.
  useEffect(() => {
    if (isSignup) void loadSignupForm();
  }, [isSignup]);

  const askForVerification = (address: string, message?: string) => {
    toast.info(message || t('auth.pleaseVerify'), { duration: AUTH_TOAST_MS });
    setVerifyEmail(address);
  };

  const failed = (message: string) => {
    toast.error(message, { duration: AUTH_TOAST_MS });
    setLoginError(message);
  };

  async function onLogin() {
    let token: string;
    try {
      token = (await login(email, password)).token;
    } catch (error) {
      if (error instanceof ApiError && error.requiresVerification) return askForVerification(email, error.message);
      const message = error instanceof ApiError && error.status !== 0 ? error.message : t('auth.loginFailed');
      return failed(withTryAgain(message));
    }
    try {
      await signIn(token);
    } catch {
      return failed(withTryAgain(t('auth.userDataFailed')));
    }
    const { path, viaInvite } = destinationAfterSignIn();
    toast.success(t(viaInvite ? 'auth.signedInJoining' : 'auth.signedIn'), {
      duration: AUTH_TOAST_MS,
    });
    setTimeout(() => navigate(path), REDIRECT_DELAY_MS);
  }

  // onLogin reports its own failures (toast and the form's alert), so the mutation is quiet.
  const signInMutation = useMutation({ mutationFn: onLogin, meta: { quiet: true } });
  const loginForm = useForm({
    schema: async () => (await loadSchemas(() => import('@contract/users'))).loginBody,
    mutation: signInMutation,
    send: () => undefined,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setLoginError('');
    void loginForm.submit({ email, password });
  }

  const form = (
    <>
      {isSignup ? (
        <Suspense
          fallback={
            <div className="mt-6 flex justify-center">
              <Spinner label={t('auth.loadingSignUp')} />
            </div>
          }
        >
          <SignupForm values={signUp} onChange={setSignUp} onVerify={setVerifyEmail} />
        </Suspense>
      ) : (
        <form onSubmit={onSubmit} onFocus={loginForm.prefetch} className="mt-6 flex flex-col gap-4">
          <EmailField
            id="email"
            name="email"
            value={email}
            onValue={(value) => {
              setEmail(value);
              loginForm.recheck({ email: value, password }, ['email']);
            }}
            problem={loginForm.problems.email}
          />
          <PasswordInput
            label={t('auth.password')}
            name="password"
            value={password}
            onChange={(value) => {
              setPassword(value);
              loginForm.recheck({ email, password: value }, ['password']);
            }}
            autoComplete="current-password"
            problem={loginForm.problems.password}
          />
          <Link to="/forgot-password" className="link -mt-2 self-end text-sm">
            {t('auth.forgotPassword')}
          </Link>
          <FormError message={loginError} />
          <button type="submit" className="btn btn-primary mt-2 w-full" disabled={loginForm.busy}>
            {t(loginForm.busy ? 'auth.loggingIn' : 'auth.logIn')}
          </button>
        </form>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        {rich(t(isSignup ? 'auth.haveAccount' : 'auth.noAccount'), [
          (words) => (
            <Link key="link" to={isSignup ? '/login' : '/signup'} className="link">
              {words}
            </Link>
          ),
        ])}
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
      <h1 className="auth-title">{t(isSignup ? 'auth.heading.signUp' : 'auth.heading.signIn')}</h1>
      <p className="mt-2 text-center text-sm text-slate-600">{t(isSignup ? 'auth.lead.signUp' : 'auth.lead.signIn')}</p>
      {!providers.data ? (
        providers.error ? (
          <div role="alert" className="mt-6 flex flex-col items-center gap-3 text-center text-sm text-red-800">
            <p>{t('auth.providersFailed')}</p>
            <button type="button" className="btn btn-secondary" onClick={providers.retry}>
              {t('common.tryAgain')}
            </button>
          </div>
        ) : (
          <div className="mt-6 flex justify-center">
            <Spinner label={t('auth.loadingProviders')} />
          </div>
        )
      ) : (
        <>
          {providers.data.oidc && (
            <a href={schoolSignInUrl(schoolSignInNext())} className="btn btn-secondary mt-6 w-full">
              {providers.data.oidc.label ?? t('auth.schoolButton')}
            </a>
          )}
          {providers.data.password ? (
            <>
              {providers.data.oidc && <p className="or-divider">{t('auth.or')}</p>}
              {form}
            </>
          ) : (
            <p className="mt-4 text-center text-sm text-slate-600">
              {t(isSignup ? 'auth.schoolOnly.signUp' : 'auth.schoolOnly.signIn')}
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
