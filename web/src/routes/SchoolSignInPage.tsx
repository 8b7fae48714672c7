import { schoolSignInNext } from '@lib/after-sign-in';
import { type MessageKey, t } from '@lib/i18n';
import { schoolSignInUrl } from '@lib/providers';
import { readToken } from '@lib/token-cookie';
import { usePageTitle } from '@lib/use-page-title';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';

type Problem = {
  title: MessageKey;
  text: MessageKey;
  /** Whether starting the school sign-in again can help. */
  retry: boolean;
  /** Where the main way back goes, when not the sign-in page. */
  back?: { to: string; label: MessageKey };
};

const PASSWORD_THEN_LINK = {
  to: '/login',
  label: 'schoolSignIn.passwordThenLink',
} as const;

/** What each `problem` code of the server's callback means, in words a pupil understands. */
const PROBLEMS: Record<string, Problem> = {
  state_mismatch: {
    title: 'schoolSignIn.stateMismatch.title',
    text: 'schoolSignIn.stateMismatch.text',
    retry: true,
  },
  expired: { title: 'schoolSignIn.expired.title', text: 'schoolSignIn.expired.text', retry: true },
  provider_unavailable: {
    title: 'schoolSignIn.providerUnavailable.title',
    text: 'schoolSignIn.providerUnavailable.text',
    retry: true,
  },
  cancelled: { title: 'schoolSignIn.cancelled.title', text: 'schoolSignIn.cancelled.text', retry: true },
  email_unverified: {
    title: 'schoolSignIn.emailUnverified.title',
    text: 'schoolSignIn.emailUnverified.text',
    retry: false,
  },
  domain_not_allowed: {
    title: 'schoolSignIn.domainNotAllowed.title',
    text: 'schoolSignIn.domainNotAllowed.text',
    retry: true,
  },
  invalid_response: {
    title: 'schoolSignIn.invalidResponse.title',
    text: 'schoolSignIn.invalidResponse.text',
    retry: true,
  },
  email_in_use: {
    title: 'schoolSignIn.emailInUse.title',
    text: 'schoolSignIn.emailInUse.text',
    retry: false,
    back: PASSWORD_THEN_LINK,
  },
  already_linked: {
    title: 'schoolSignIn.alreadyLinked.title',
    text: 'schoolSignIn.alreadyLinked.text',
    retry: false,
  },
  too_many_attempts: {
    title: 'schoolSignIn.tooManyAttempts.title',
    text: 'schoolSignIn.tooManyAttempts.text',
    retry: true,
  },
  account_disabled: {
    title: 'schoolSignIn.accountDisabled.title',
    text: 'schoolSignIn.accountDisabled.text',
    retry: false,
  },
  confirm_mismatch: {
    title: 'schoolSignIn.confirmMismatch.title',
    text: 'schoolSignIn.confirmMismatch.text',
    retry: false,
  },
};

const UNKNOWN: Problem = {
  title: 'schoolSignIn.unknown.title',
  text: 'schoolSignIn.unknown.text',
  retry: true,
};

/** /school-sign-in?problem=<code>: where a failed school sign-in (or linking) lands, with a way back. */
export function SchoolSignInPage() {
  const [params] = useSearchParams();
  const code = params.get('problem') ?? '';
  const problem = Object.hasOwn(PROBLEMS, code) ? PROBLEMS[code] : UNKNOWN;
  usePageTitle(t(problem.title));
  // Someone signed in got here while linking a school account from Settings: their way back is Settings.
  const linking = Boolean(readToken());
  const back = linking
    ? { to: '/settings', label: t('schoolSignIn.backToSettings') }
    : problem.back
      ? { to: problem.back.to, label: t(problem.back.label) }
      : { to: '/login', label: t('common.backToSignIn') };
  // After a refused domain, the provider lets the person choose another account (`switch=1`).
  const retryUrl = `${linking ? schoolSignInUrl('/settings', 'link') : schoolSignInUrl(schoolSignInNext())}${code === 'domain_not_allowed' ? '&switch=1' : ''}`;
  return (
    <AuthLayout>
      <div className="text-center">
        <h1 className="auth-title">{t(problem.title)}</h1>
        <p className="mt-3 text-slate-700">{t(problem.text)}</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          {problem.retry && (
            <a href={retryUrl} className="btn btn-primary">
              {t('common.tryAgain')}
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
