import { Navigate } from 'react-router';
import { Unreachable } from '../features/auth/components/ProtectedRoute';
import { useSession } from '../lib/session';
import { FullPageLoader } from '../ui/Spinner';

export function HomeRedirect() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'unreachable') return <Unreachable />;
  return <Navigate to={status === 'authenticated' ? '/classroom' : '/login'} replace />;
}
