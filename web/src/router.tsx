import { createBrowserRouter } from 'react-router';
import { AppShell } from './components/AppShell';
import { ProtectedRoute } from './components/ProtectedRoute';
import { HomeRedirect } from './routes/HomeRedirect';

/** Route modules load lazily, so the login page does not carry the player or the QR code. */
export const router = createBrowserRouter([
  { path: '/', Component: HomeRedirect },
  { path: '/login', lazy: () => import('./routes/AuthPage').then((m) => ({ Component: m.LoginPage })) },
  { path: '/signup', lazy: () => import('./routes/AuthPage').then((m) => ({ Component: m.SignupPage })) },
  {
    path: '/verify-email',
    lazy: () => import('./routes/VerifyEmailPage').then((m) => ({ Component: m.VerifyEmailPage })),
  },
  {
    path: '/forgot-password',
    lazy: () => import('./routes/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })),
  },
  { path: '/join/:inviteCode', lazy: () => import('./routes/JoinPage').then((m) => ({ Component: m.JoinPage })) },
  {
    Component: ProtectedRoute,
    children: [
      {
        Component: AppShell,
        children: [
          {
            path: '/classroom',
            lazy: () => import('./routes/ClassroomPage').then((m) => ({ Component: m.ClassroomPage })),
          },
          {
            path: '/classroom/:id',
            lazy: () => import('./routes/CoursePage').then((m) => ({ Component: m.CoursePage })),
          },
          { path: '/history', lazy: () => import('./routes/HistoryPage').then((m) => ({ Component: m.HistoryPage })) },
          {
            path: '/settings',
            lazy: () => import('./routes/SettingsPage').then((m) => ({ Component: m.SettingsPage })),
          },
          { path: '/admin', lazy: () => import('./routes/AdminPage').then((m) => ({ Component: m.AdminPage })) },
          { path: '/share/:id', lazy: () => import('./routes/SharePage').then((m) => ({ Component: m.SharePage })) },
        ],
      },
    ],
  },
  { path: '*', lazy: () => import('./routes/NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
]);
