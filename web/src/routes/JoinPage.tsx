import { ApiError } from '@api/client';
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
  usePageTitle(state === 'error' ? 'Could not join the class' : state === 'signed-out' ? null : 'Joining a class');

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
      toast.success(`You joined ${enrollment.course.courseName}`);
      navigate(`/classroom/${enrollment.courseId}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        pendingInvite.set(inviteCode);
        setState('signed-out');
        return;
      }
      pendingInvite.clear();
      setMessage(error instanceof ApiError && error.status ? error.message : 'Failed to join classroom');
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
          <h1 className="auth-title">Error Joining Classroom</h1>
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
              Go Back
            </button>
            <Link to="/classroom?join" className="btn btn-primary">
              Enter a class code
            </Link>
            <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
              Try Again
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-4 py-6 text-center">
          <Spinner label={state === 'initializing' ? 'Initializing' : 'Joining'} />
          <p className="font-medium text-slate-700">
            {state === 'initializing' ? 'Initializing join process...' : 'Joining classroom...'}
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
  usePageTitle(preview.data ? `Join ${preview.data.courseName}` : 'Join a class');
  if (preview.isPending || (!providers.data && !providers.error)) {
    return (
      <AuthLayout>
        <div className="flex justify-center py-6">
          <Spinner label="Loading the invite" />
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
            ? `You're invited to ${preview.data.courseName}`
            : dead
              ? 'This invite link no longer works'
              : 'You have an invite to a class'}
        </h1>
        <p className="mt-3 text-slate-700">
          {preview.data?.teacherName ? `${preview.data.teacherName}'s class. ` : ''}
          {dead
            ? 'Ask your teacher for the class code: you can enter it once you are signed in.'
            : password
              ? 'Create your account to join, or log in if you already have one.'
              : 'Sign in with your school account to join.'}
        </p>
      </div>
      {password && (
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          <Link to="/signup" className="btn btn-primary">
            Create your account
          </Link>
          <Link to="/login" className="btn btn-secondary">
            Log in
          </Link>
        </div>
      )}
      {oidc && (
        <>
          {password && <p className="or-divider">or</p>}
          <a
            href={schoolSignInUrl(`/join/${encodeURIComponent(inviteCode)}`)}
            className={`btn mt-5 w-full ${password ? 'btn-secondary' : 'btn-primary'}`}
          >
            {oidc.label}
          </a>
        </>
      )}
      {providers.error !== undefined && (
        <div role="alert" className="mt-5 flex flex-col items-center gap-2 text-center text-sm text-red-800">
          <p>Could not load the ways to sign in. Check your connection.</p>
          <button type="button" className="btn btn-secondary" onClick={providers.retry}>
            Try again
          </button>
        </div>
      )}
    </AuthLayout>
  );
}
