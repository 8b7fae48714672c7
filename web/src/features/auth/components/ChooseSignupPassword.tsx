import { type FormEvent, useEffect, useRef, useState } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { ApiError } from '../../../api/client';
import { loadSchemas, problemOf } from '../../../lib/form-check';
import { FieldProblem } from '../../../ui/FieldProblem';
import { FormError } from '../../../ui/FormError';
import { type Role, verifyOtp } from '../api/users';
import { NewPasswordFields } from './NewPasswordFields';
import { RoleChoice } from './RoleChoice';

/** The account routes' request schemas: the password is checked by the server's own rule. */
const contract = () => loadSchemas(() => import('../../../../../src/contract/users'));

/**
 * The code was right but typed away from the browser that signed up: the name, role and password typed there are
 * not trusted (docs/accounts.md, "sign-up takeover"), so the owner of the mailbox gives them now, with the same code.
 */
export function ChooseSignupPassword({
  email,
  otp,
  message,
  onVerified,
  onBack,
}: {
  email: string;
  otp: string;
  /** The server's words for why it asks. */
  message: string;
  onVerified: (token: string) => Promise<void>;
  onBack: () => void;
}) {
  const [username, setUsername] = useState('');
  const [usernameProblem, setUsernameProblem] = useState('');
  const [role, setRole] = useState<Role>('student');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form changed under the user's hands: tell a screen reader where they are.
  useEffect(() => heading.current?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Checked here, in words, rather than by the browser's own bubble (WebKit shows none): the last error goes.
    const nameProblem = (await problemOf((await contract()).usernameField, username)) ?? '';
    setUsernameProblem(nameProblem);
    if (nameProblem) {
      setError('');
      return;
    }
    if (await problemOf((await contract()).newPasswordField, password)) {
      setError(`Use ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters for your password.`);
      return;
    }
    if (password !== confirm) {
      setError("The passwords don't match.");
      return;
    }
    setError('');
    setSaving(true);
    let token: string;
    try {
      token = (await verifyOtp(email, otp, { password, username, role })).token;
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Failed to verify OTP. Please try again.');
      setSaving(false);
      return;
    }
    await onVerified(token);
  }

  return (
    <div>
      <h1 ref={heading} tabIndex={-1} className="auth-title outline-none">
        Choose your password
      </h1>
      <p className="mt-2 text-center text-sm text-slate-600">{message}</p>
      <p className="mt-2 text-center text-sm text-slate-600">
        This device did not start the sign-up for{' '}
        <strong className="text-slate-900 [overflow-wrap:anywhere]">{email}</strong>, so what was typed elsewhere will
        not open the account: please give your name, your role and a password.
      </p>
      <form noValidate onSubmit={onSubmit} onFocus={() => void contract()} className="mt-6 flex flex-col gap-4">
        <div className="field">
          <label htmlFor="choose-username">Name</label>
          <input
            id="choose-username"
            name="username"
            className="input aria-invalid:border-red-500"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            autoComplete="name"
            required
            minLength={LIMITS.usernameMin}
            maxLength={LIMITS.usernameMax}
            aria-invalid={usernameProblem ? true : undefined}
            aria-describedby={usernameProblem ? 'choose-username-problem' : undefined}
          />
          <FieldProblem id="choose-username-problem" message={usernameProblem} />
        </div>
        <RoleChoice role={role} onChange={setRole} />
        <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
        <FormError message={error} />
        <button type="submit" className="btn btn-primary w-full" disabled={saving}>
          {saving ? 'Saving...' : 'Set password and sign in'}
        </button>
        <button type="button" className="btn btn-secondary w-full" onClick={onBack}>
          Go back
        </button>
      </form>
    </div>
  );
}
