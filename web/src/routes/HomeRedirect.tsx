import { Navigate } from 'react-router';
import { FullPageLoader } from '../components/Spinner';
import { useSession } from '../state/session';

export function HomeRedirect() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  return <Navigate to={status === 'authenticated' ? '/classroom' : '/login'} replace />;
}
