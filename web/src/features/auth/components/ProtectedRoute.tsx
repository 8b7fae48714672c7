import { returnAfterSignIn } from '@lib/after-sign-in';
import { t } from '@lib/i18n';
import { loadSession, sessionAtom, useSession } from '@lib/session';
import { usePageTitle } from '@lib/use-page-title';
import { FullPageLoader } from '@ui/Spinner';
import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';

/**
 * Shows a loader while the session loads, a Retry screen when the server cannot be reached (the login is
 * kept), and sends anyone signed out to /login, remembering the page they asked for.
 */
export function ProtectedRoute() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'unreachable') return <Unreachable />;
  if (status !== 'authenticated') {
    // A visitor's link is kept for after sign-in; the page of someone who just signed out is not.
    if (status === 'unauthenticated') returnAfterSignIn.set(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/login" replace />;
  }
  return <Outlet />;
}

export function Unreachable() {
  const setSession = useSetAtom(sessionAtom);
  const retry = async () => {
    setSession({ status: 'loading', user: null });
    setSession(await loadSession());
  };
  // Offline with nothing saved on this device (a saved lecture keeps the session too): say where saved lectures go.
  const offline = !navigator.onLine;
  usePageTitle(t(offline ? 'unreachable.offline' : 'unreachable.server'));
  // Back online, it tries again by itself, as the app's other offline screens do.
  // biome-ignore lint/correctness/useExhaustiveDependencies: retry is remade each render; the listener is added once
  useEffect(() => {
    const again = () => void retry();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, []);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-xl font-semibold text-slate-900">
        {t(offline ? 'unreachable.offline' : 'unreachable.server')}
      </h1>
      <p className="max-w-sm text-slate-600">{t(offline ? 'unreachable.offlineText' : 'unreachable.serverText')}</p>
      <button type="button" className="btn btn-primary" onClick={retry}>
        {t('common.tryAgain')}
      </button>
    </main>
  );
}
