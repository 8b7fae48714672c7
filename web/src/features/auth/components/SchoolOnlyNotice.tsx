import { schoolSignInNext } from '@lib/after-sign-in';
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
      <p className="mt-3 text-slate-700">
        This school signs in with its school account, so there are no passwords or email codes here. If you forgot your
        school account's password, ask your school's IT team.
      </p>
      <div className="mt-6 flex flex-col gap-3">
        {providers.oidc && (
          <a href={schoolSignInUrl(schoolSignInNext())} className="btn btn-primary">
            {providers.oidc.label}
          </a>
        )}
        <Link to="/login" className="btn btn-secondary">
          Back to sign in
        </Link>
      </div>
    </div>
  );
}
