import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../state/session';
import { FullPageLoader } from './Spinner';

/** Shows a loader while the session loads and sends anyone signed out to /login. */
export function ProtectedRoute() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoader />;
  if (status !== 'authenticated') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
