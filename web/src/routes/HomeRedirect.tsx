import { Navigate } from 'react-router';
import { Unreachable } from '../components/ProtectedRoute';
import { FullPageLoader } from '../components/Spinner';
import { useSession } from '../state/session';

export function HomeRedirect() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'unreachable') return <Unreachable />;
  return <Navigate to={status === 'authenticated' ? '/classroom' : '/login'} replace />;
}
