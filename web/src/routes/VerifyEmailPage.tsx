import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout } from '../components/AuthLayout';
import { VerifyEmailForm } from '../components/VerifyEmailForm';

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const email = params.get('email')?.trim();
  return (
    <AuthLayout>
      {email ? (
        <VerifyEmailForm email={email.toLowerCase()} onBack={() => navigate('/login')} />
      ) : (
        <div className="text-center">
          <h1 className="auth-title">Verify Your Email</h1>
          <p className="mt-4 text-slate-600">No email address provided for verification.</p>
          <Link to="/login" className="btn btn-primary mt-6 inline-flex">
            Go to Login
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}
