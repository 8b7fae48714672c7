import { page } from '@lib/lazy-page';
import { useSession } from '@lib/session';
import { FullPageLoader } from '@ui/Spinner';
import { Navigate } from 'react-router';

// Loaded with the sign-in check (router.tsx), not with the first page: few visits ever see it.
const Unreachable = page(() => import('../features/auth/components/ProtectedRoute'), 'Unreachable');

export function HomeRedirect() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'unreachable') return <Unreachable />;
  return <Navigate to={status === 'authenticated' ? '/classroom' : '/login'} replace />;
}
