import { schoolSignInNext } from '@lib/after-sign-in';
import { t } from '@lib/i18n';
import { type Providers, schoolSignInUrl } from '@lib/providers';
import { Link } from 'react-router';

/**
 * Shown instead of a password screen (forgot password, email code) when this school signs in only with its school
 * accounts (PASSWORD_SIGNIN=false): what to do instead, the school's button and the way back.
 */
export function SchoolOnlyNotice({ title, providers }: { title: string; providers: Providers }) {
  return (
    <div className="text-center">
      <h1 className="auth-title">{title}</h1>
      <p className="mt-3 text-slate-700">{t('auth.schoolOnly.notice')}</p>
      <div className="mt-6 flex flex-col gap-3">
        {providers.oidc && (
          <a href={schoolSignInUrl(schoolSignInNext())} className="btn btn-primary">
            {providers.oidc.label ?? t('auth.schoolButton')}
          </a>
        )}
        <Link to="/login" className="btn btn-secondary">
          {t('common.backToSignIn')}
        </Link>
      </div>
    </div>
  );
}
