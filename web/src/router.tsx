import { reloadIfLanguageChanged } from '@lib/i18n';
import { page } from '@lib/lazy-page';
import { dismissToastsOfLastPage } from '@lib/toast';
import { readToken } from '@lib/token-cookie';
import { PageLoadBoundary } from '@ui/PageLoadBoundary';
import { FullPageLoader } from '@ui/Spinner';
import { Suspense, useEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { LoginPage, SignupPage } from './routes/AuthPage';
import { HomeRedirect } from './routes/HomeRedirect';

/**
 * The routes of the spec. Declarative routing (no data router: nothing here loads data through the router, TanStack
 * Query does) keeps react-router at half its size, and every screen but sign-in loads lazily, so the sign-in page
 * carries neither the shell, the player nor the QR code. The sign-in page is in the first chunk: one request less
 * where most visits start (bench:web's 100 KB budget counts each request's headers too). The sign-up page's frame is
 * there too; its form (features/auth/components/SignupForm.tsx) loads with /signup.
 */
const VerifyEmailPage = page(() => import('./routes/VerifyEmailPage'), 'VerifyEmailPage');
const ForgotPasswordPage = page(() => import('./routes/ForgotPasswordPage'), 'ForgotPasswordPage');
const JoinPage = page(() => import('./routes/JoinPage'), 'JoinPage');
const SchoolSignInPage = page(() => import('./routes/SchoolSignInPage'), 'SchoolSignInPage');
// The sign-in check only signed-in pages need: the sign-in page carries none of it (bench:web's budget).
const ProtectedRoute = page(() => import('./features/auth/components/ProtectedRoute'), 'ProtectedRoute');
const AppShell = page(() => import('./app/AppShell'), 'AppShell');
const ClassroomPage = page(() => import('./routes/ClassroomPage'), 'ClassroomPage');
const CoursePage = page(() => import('./routes/CoursePage'), 'CoursePage');
const HistoryPage = page(() => import('./routes/HistoryPage'), 'HistoryPage');
const SearchPage = page(() => import('./routes/SearchPage'), 'SearchPage');
const SettingsPage = page(() => import('./routes/SettingsPage'), 'SettingsPage');
const AdminPage = page(() => import('./routes/AdminPage'), 'AdminPage');
const SharePage = page(() => import('./routes/SharePage'), 'SharePage');
const DownloadsPage = page(() => import('./routes/DownloadsPage'), 'DownloadsPage');
const NotFoundPage = page(() => import('./routes/NotFoundPage'), 'NotFoundPage');
/**
 * Signed in, the sign-in check's code loads at once; a class opened straight from a link or a reload has its code
 * and its data load beside the check, not after the shell's. main.tsx calls it as the app starts (no module reads
 * the address or the token when imported).
 */
export function preloadOpenedPage() {
  if (!readToken()) return;
  void ProtectedRoute.preload();
  if (!/^\/classroom\/./.test(location.pathname)) return;
  void AppShell.preload();
  void CoursePage.preload();
  void import('./routes/CoursePage').then((module) => module.prefetchOpenedClass(location.pathname));
}

/** A toast belongs to the page that showed it: moving to another page clears it (see dismissToastsOfLastPage). */
function ToastsFollowPages() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname) dismissToastsOfLastPage();
    reloadIfLanguageChanged();
  }, [pathname]);
  return null;
}

/** A screen that cannot be drawn (its code did not arrive) says so with Retry, never a white page. */
function PagesBoundary({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  return <PageLoadBoundary resetKey={pathname}>{children}</PageLoadBoundary>;
}

export function AppRoutes() {
  return (
    <BrowserRouter>
      <ToastsFollowPages />
      <PagesBoundary>
        <Suspense fallback={<FullPageLoader />}>
          <Routes>
            <Route path="/" element={<HomeRedirect />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/signup" element={<SignupPage />} />
            <Route path="/verify-email" element={<VerifyEmailPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/join/:inviteCode" element={<JoinPage />} />
            <Route path="/school-sign-in" element={<SchoolSignInPage />} />
            <Route element={<ProtectedRoute />}>
              <Route element={<AppShell />}>
                <Route path="/classroom" element={<ClassroomPage />} />
                <Route path="/classroom/:id" element={<CoursePage />} />
                <Route path="/history" element={<HistoryPage />} />
                <Route path="/search" element={<SearchPage />} />
                <Route path="/settings" element={<SettingsPage />} />
                <Route path="/admin" element={<AdminPage />} />
                <Route path="/share/:id" element={<SharePage />} />
                <Route path="/downloads" element={<DownloadsPage />} />
              </Route>
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </PagesBoundary>
    </BrowserRouter>
  );
}

// The dev server's hot updates stop here: an edited page re-renders in place instead of reloading the app (in a
// production build import.meta.hot is undefined and this is dropped).
if (import.meta.hot) import.meta.hot.accept();
