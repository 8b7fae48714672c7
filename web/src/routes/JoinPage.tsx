import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { joinByInviteCode } from '../api/courses';
import { AuthLayout } from '../components/AuthLayout';
import { Spinner } from '../components/Spinner';
import { pendingInvite } from '../lib/pending-invite';
import { toast } from '../lib/toast';
import { readToken } from '../lib/token-cookie';

type JoinState = 'initializing' | 'joining' | 'joined' | 'error';

/** /join/{inviteCode}: joins at once when signed in; otherwise keeps the code and goes through login. */
export function JoinPage() {
  const { inviteCode = '' } = useParams();
  const navigate = useNavigate();
  const [state, setState] = useState<JoinState>('initializing');
  const [message, setMessage] = useState('');
  const started = useRef(false);

  const join = useCallback(async () => {
    if (!readToken()) {
      pendingInvite.set(inviteCode);
      navigate('/login', { replace: true });
      return;
    }
    setState('joining');
    try {
      const enrollment = await joinByInviteCode(inviteCode);
      setState('joined');
      toast.success(`You joined ${enrollment.course.courseName}`);
      navigate(`/classroom/${enrollment.courseId}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        pendingInvite.set(inviteCode);
        navigate('/login', { replace: true });
        return;
      }
      setMessage(error instanceof ApiError && error.status ? error.message : 'Failed to join classroom');
      setState('error');
    }
  }, [inviteCode, navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    join();
  }, [join]);

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
