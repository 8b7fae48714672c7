import { schoolSignInNext } from '@lib/after-sign-in';
import { schoolSignInUrl } from '@lib/providers';
import { readToken } from '@lib/token-cookie';
import { usePageTitle } from '@lib/use-page-title';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';

type Problem = {
  title: string;
  text: string;
  /** Whether starting the school sign-in again can help. */
  retry: boolean;
  /** Where the main way back goes, when not the sign-in page. */
  back?: { to: string; label: string };
};

const PASSWORD_THEN_LINK = {
  to: '/login',
  label: 'Sign in with your password',
};

/** What each `problem` code of the server's callback means, in words a pupil understands. */
const PROBLEMS: Record<string, Problem> = {
  state_mismatch: {
    title: 'This sign-in could not be checked',
    text: 'The answer from your school did not match the sign-in this browser started, so we stopped to keep your account safe. Please try again.',
    retry: true,
  },
  expired: {
    title: 'The sign-in took too long',
    text: 'The sign-in ran out of time before it finished. Please try again.',
    retry: true,
  },
  provider_unavailable: {
    title: 'Your school’s sign-in is not answering',
    text: 'We could not reach your school’s sign-in service. Wait a minute and try again. If it keeps happening, tell your teacher.',
    retry: true,
  },
  cancelled: {
    title: 'Sign-in cancelled',
    text: 'You stopped the sign-in at your school’s page. Nothing was changed.',
    retry: true,
  },
  email_unverified: {
    title: 'Your school email is not confirmed',
    text: 'Your school account has no confirmed email address, so it cannot be used here yet. Ask your school’s IT team to confirm it.',
    retry: false,
  },
  domain_not_allowed: {
    title: 'This account is not from this school',
    text: 'This classroom only lets in accounts from its school. Sign in again with your school account, not a personal one.',
    retry: true,
  },
  invalid_response: {
    title: 'Your school’s answer could not be trusted',
    text: 'Your school’s sign-in service sent an answer we could not check, so we stopped. Please try again. If it keeps happening, tell your teacher.',
    retry: true,
  },
  email_in_use: {
    title: 'You already have an account',
    text: 'An account with this email already exists. Sign in with your password, then link your school account in Settings → Linked sign-in.',
    retry: false,
    back: PASSWORD_THEN_LINK,
  },
  already_linked: {
    title: 'This school account is already in use',
    text: 'This school account is already linked to another account here. Sign in with it to reach that account, or link a different school account.',
    retry: false,
  },
  too_many_attempts: {
    title: 'Too many sign-ins at once',
    text: 'Too many sign-ins were started from this network. Wait a few minutes, then try again.',
    retry: true,
  },
  account_disabled: {
    title: 'This account is turned off',
    text: 'The administrator has turned this account off. Ask your teacher or the administrator for help.',
    retry: false,
  },
  confirm_mismatch: {
    title: 'That was a different school account',
    text: 'To confirm, sign in with the same school account you use for this classroom account. Nothing was changed. Go back to Settings and try again with that account.',
    retry: false,
  },
};

const UNKNOWN: Problem = {
  title: 'School sign-in did not work',
  text: 'Something went wrong while signing in with your school. Please try again.',
  retry: true,
};

/** /school-sign-in?problem=<code>: where a failed school sign-in (or linking) lands, with a way back. */
export function SchoolSignInPage() {
  const [params] = useSearchParams();
  const code = params.get('problem') ?? '';
  const problem = Object.hasOwn(PROBLEMS, code) ? PROBLEMS[code] : UNKNOWN;
  usePageTitle(problem.title);
  // Someone signed in got here while linking a school account from Settings: their way back is Settings.
  const linking = Boolean(readToken());
  const back = linking
    ? { to: '/settings', label: 'Back to Settings' }
    : (problem.back ?? { to: '/login', label: 'Back to sign in' });
  // After a refused domain, the provider lets the person choose another account (`switch=1`).
  const retryUrl = `${linking ? schoolSignInUrl('/settings', 'link') : schoolSignInUrl(schoolSignInNext())}${code === 'domain_not_allowed' ? '&switch=1' : ''}`;
  return (
    <AuthLayout>
      <div className="text-center">
        <h1 className="auth-title">{problem.title}</h1>
        <p className="mt-3 text-slate-700">{problem.text}</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          {problem.retry && (
            <a href={retryUrl} className="btn btn-primary">
              Try again
            </a>
          )}
          <Link to={back.to} className={`btn ${problem.retry ? 'btn-secondary' : 'btn-primary'}`}>
            {back.label}
          </Link>
        </div>
      </div>
    </AuthLayout>
  );
}
