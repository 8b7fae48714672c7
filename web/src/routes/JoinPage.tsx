import { ApiError } from '@api/client';
import { rich, t } from '@lib/i18n';
import { pendingInvite } from '@lib/pending-invite';
import { schoolSignInUrl, useProviders } from '@lib/providers';
import { toast } from '@lib/toast';
import { readToken } from '@lib/token-cookie';
import { usePageTitle } from '@lib/use-page-title';
import { Spinner } from '@ui/Spinner';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';
import { joinByInviteCode, useInvitePreview } from '../features/classes/api/courses';

type JoinState = 'initializing' | 'signed-out' | 'joining' | 'joined' | 'error';

/**
 * /join/{inviteCode}: joins at once when signed in. Signed out, it keeps the code (sign-up, login and the school's
 * sign-in all come back here) and shows which class it is, with "Create your account" first: a pupil scanning a
 * class QR code usually has no account yet.
 */
export function JoinPage() {
  const { inviteCode = '' } = useParams();
  const navigate = useNavigate();
  const [state, setState] = useState<JoinState>('initializing');
  const [message, setMessage] = useState('');
  const started = useRef(false);
  usePageTitle(state === 'error' ? t('join.title.failed') : state === 'signed-out' ? null : t('join.title.joining'));

  const join = useCallback(async () => {
    if (!readToken()) {
      pendingInvite.set(inviteCode);
      setState('signed-out');
      return;
    }
    setState('joining');
    try {
      const enrollment = await joinByInviteCode(inviteCode);
      // Back from a school sign-in, the code kept for the round trip is used now.
      pendingInvite.clear();
      setState('joined');
      toast.success(t('join.joined', { name: enrollment.course.courseName }));
      navigate(`/classroom/${enrollment.courseId}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        pendingInvite.set(inviteCode);
        setState('signed-out');
        return;
      }
      pendingInvite.clear();
      setMessage(error instanceof ApiError && error.status ? error.message : t('join.failed'));
      setState('error');
    }
  }, [inviteCode, navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    join();
  }, [join]);

  if (state === 'signed-out') return <InviteLanding inviteCode={inviteCode} />;

  return (
    <AuthLayout>
      {state === 'error' ? (
        <div className="text-center">
          <h1 className="auth-title">{t('join.errorHeading')}</h1>
          <p role="alert" className="mt-3 text-red-600">
            {message}
          </p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <button
              type="button"
              className="btn btn-secondary"
              // Back inside the app; a link opened from a chat or a QR code has no page of ours before it.
              onClick={() => ((window.history.state?.idx ?? 0) > 0 ? navigate(-1) : navigate('/classroom'))}
            >
              {t('common.goBack')}
            </button>
            <Link to="/classroom?join" className="btn btn-primary">
              {t('join.enterCode')}
            </Link>
            <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
              {t('common.tryAgain')}
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-4 py-6 text-center">
          <Spinner label={t(state === 'initializing' ? 'join.initializing' : 'join.joining')} />
          <p className="font-medium text-slate-700">
            {t(state === 'initializing' ? 'join.initializingLong' : 'join.joiningLong')}
          </p>
        </div>
      )}
    </AuthLayout>
  );
}

/** A signed-out visitor's invite: the class and its teacher, then the ways in, each coming back to this link. */
function InviteLanding({ inviteCode }: { inviteCode: string }) {
  const preview = useInvitePreview(inviteCode);
  const providers = useProviders();
  usePageTitle(preview.data ? t('join.title.join', { name: preview.data.courseName }) : t('join.title.aClass'));
  if (preview.isPending || (!providers.data && !providers.error)) {
    return (
      <AuthLayout>
        <div className="flex justify-center py-6">
          <Spinner label={t('join.loadingInvite')} />
        </div>
      </AuthLayout>
    );
  }
  const dead = preview.error instanceof ApiError && preview.error.status === 404;
  const password = providers.data?.password !== false;
  const oidc = providers.data?.oidc;
  return (
    <AuthLayout>
      <div className="text-center">
        <h1 className="auth-title">
          {preview.data
            ? rich(t('join.invitedTo', { name: preview.data.courseName }), [
                (words) => (
                  <span key="name" translate="no">
                    {words}
                  </span>
                ),
              ])
            : t(dead ? 'join.deadLink' : 'join.haveInvite')}
        </h1>
        <p className="mt-3 text-slate-700">
          {preview.data?.teacherName &&
            rich(t('join.teachersClass', { name: preview.data.teacherName }), [
              (words) => (
                <span key="name" translate="no">
                  {words}
                </span>
              ),
            ])}{' '}
          {t(dead ? 'join.askForCode' : password ? 'join.createOrLogIn' : 'join.schoolToJoin')}
        </p>
      </div>
      {password && (
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          <Link to="/signup" className="btn btn-primary">
            {t('join.createAccount')}
          </Link>
          <Link to="/login" className="btn btn-secondary">
            {t('join.logIn')}
          </Link>
        </div>
      )}
      {oidc && (
        <>
          {password && <p className="or-divider">{t('auth.or')}</p>}
          <a
            href={schoolSignInUrl(`/join/${encodeURIComponent(inviteCode)}`)}
            className={`btn mt-5 w-full ${password ? 'btn-secondary' : 'btn-primary'}`}
          >
            {oidc.label ?? t('auth.schoolButton')}
          </a>
        </>
      )}
      {providers.error !== undefined && (
        <div role="alert" className="mt-5 flex flex-col items-center gap-2 text-center text-sm text-red-800">
          <p>{t('auth.providersFailed')}</p>
          <button type="button" className="btn btn-secondary" onClick={providers.retry}>
            {t('common.tryAgain')}
          </button>
        </div>
      )}
    </AuthLayout>
  );
}
