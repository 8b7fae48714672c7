import { t } from '@lib/i18n';
import { useProviders } from '@lib/providers';
import { usePageTitle } from '@lib/use-page-title';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout } from '../app/AuthLayout';
import { SchoolOnlyNotice } from '../features/auth/components/SchoolOnlyNotice';
import { VerifyEmailForm } from '../features/auth/components/VerifyEmailForm';

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const email = params.get('email')?.trim();
  const providers = useProviders();
  usePageTitle(t('auth.title.verify'));
  return (
    <AuthLayout>
      {providers.data?.password === false ? (
        <SchoolOnlyNotice title={t('verify.noCode')} providers={providers.data} />
      ) : email ? (
        <VerifyEmailForm email={email.toLowerCase()} onBack={() => navigate('/login')} />
      ) : (
        <div className="text-center">
          <h1 className="auth-title">{t('verify.heading')}</h1>
          <p className="mt-4 text-slate-600">{t('verify.noAddress')}</p>
          <Link to="/login" className="btn btn-primary mt-6 inline-flex">
            {t('verify.goToLogin')}
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}
