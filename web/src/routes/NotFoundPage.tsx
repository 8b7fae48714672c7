import { t } from '@lib/i18n';
import { usePageTitle } from '@lib/use-page-title';
import { useNavigate } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';

export function NotFoundPage() {
  const navigate = useNavigate();
  usePageTitle(t('notFound.title'));
  return (
    <AuthLayout>
      <div className="text-center">
        <p className="text-6xl font-bold text-indigo-600">404</p>
        <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t('notFound.heading')}</h1>
        <p className="mt-2 text-slate-600">{t('notFound.lead')}</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>
            {t('notFound.home')}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => navigate(-1)}>
            {t('common.goBack')}
          </button>
        </div>
      </div>
    </AuthLayout>
  );
}
