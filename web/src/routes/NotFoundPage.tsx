import { usePageTitle } from '@lib/use-page-title';
import { useNavigate } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';

export function NotFoundPage() {
  const navigate = useNavigate();
  usePageTitle('Page not found');
  return (
    <AuthLayout>
      <div className="text-center">
        <p className="text-6xl font-bold text-indigo-600">404</p>
        <h1 className="mt-4 text-2xl font-semibold text-slate-900">Oops! Page Not Found</h1>
        <p className="mt-2 text-slate-600">The page you are looking for does not exist or has moved.</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>
            Return to Dashboard
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => navigate(-1)}>
            Go Back
          </button>
        </div>
      </div>
    </AuthLayout>
  );
}
