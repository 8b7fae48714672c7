import { type FormEvent, useRef, useState } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { ApiError } from '../../../api/client';
import { type FieldProblems, fieldProblems, loadSchemas } from '../../../lib/form-check';
import { AUTH_TOAST_MS, withTryAgain } from '../../../lib/messages';
import { toast } from '../../../lib/toast';
import { FieldProblem } from '../../../ui/FieldProblem';
import { PasswordInput } from '../../../ui/PasswordInput';
import { type Role, register } from '../api/users';
import { RoleChoice } from './RoleChoice';

/** The account routes' request schemas, loaded when a field is first focused: the sign-up is checked by them. */
const contract = () => loadSchemas(() => import('../../../../../src/contract/users'));

/** What the sign-up form holds: kept by the page, so going back from the code form finds it as it was. */
export type SignUpValues = { username: string; email: string; password: string; role: Role };

/**
 * The sign-up form of /signup (loaded with that page only, so the sign-in page stays inside its budget). Each
 * field's problem is said under it in the server's own words before anything is sent; a refusal still shows.
 * `onVerify`: the account waits for the code mailed to this address.
 */
export function SignupForm({
  values,
  onChange,
  onVerify,
}: {
  values: SignUpValues;
  onChange: (values: SignUpValues) => void;
  onVerify: (email: string) => void;
}) {
  const { username, email, password, role } = values;
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<FieldProblems>({});
  const checks = useRef(0);
  const set =
    <Field extends keyof SignUpValues>(field: Field) =>
    (value: SignUpValues[Field]) => {
      const next = { ...values, [field]: value };
      onChange(next);
      // A field said to be wrong is checked again as it is typed: its problem goes (its hint comes back) once fixed.
      if (problems[field]) void recheck(field, next);
    };

  async function recheck(field: keyof SignUpValues, next: SignUpValues) {
    const check = ++checks.current;
    const found = await fieldProblems((await contract()).registerBody, next);
    if (check !== checks.current) return;
    setProblems(({ [field]: _, ...others }) => (found[field] ? { ...others, [field]: found[field] } : others));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    checks.current++;
    const found = await fieldProblems((await contract()).registerBody, values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await register(values);
      toast.success('Registration successful! Please verify your email with the OTP sent.', {
        duration: AUTH_TOAST_MS,
      });
      onVerify(email);
    } catch (error) {
      if (error instanceof ApiError && error.requiresVerification) {
        toast.info(error.message || 'Please verify your email', { duration: AUTH_TOAST_MS });
        onVerify(email);
        return;
      }
      const message = error instanceof ApiError && error.status !== 0 ? error.message : 'Registration failed';
      toast.error(withTryAgain(message), { duration: AUTH_TOAST_MS });
    } finally {
      setBusy(false);
    }
  }

  return (
    // noValidate: the contract's words under each field, rather than the browser's bubble (WebKit shows none).
    <form onSubmit={onSubmit} onFocus={() => void contract()} noValidate className="mt-6 flex flex-col gap-4">
      <div className="field">
        <label htmlFor="username">Name</label>
        <input
          id="username"
          name="username"
          className="input aria-invalid:border-red-500"
          value={username}
          onChange={(event) => set('username')(event.target.value)}
          autoComplete="name"
          required
          minLength={LIMITS.usernameMin}
          maxLength={LIMITS.usernameMax}
          aria-invalid={problems.username ? true : undefined}
          aria-describedby={problems.username ? 'username-problem' : undefined}
        />
        <FieldProblem id="username-problem" message={problems.username} />
      </div>
      <div className="field">
        <label htmlFor="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          className="input aria-invalid:border-red-500"
          value={email}
          onChange={(event) => set('email')(event.target.value)}
          autoComplete="email"
          required
          aria-invalid={problems.email ? true : undefined}
          aria-describedby={problems.email ? 'email-problem' : undefined}
        />
        <FieldProblem id="email-problem" message={problems.email} />
      </div>
      <PasswordInput
        label="Password"
        name="password"
        value={password}
        onChange={set('password')}
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        hint={`At least ${LIMITS.passwordMin} characters.`}
        problem={problems.password}
      />
      <RoleChoice role={role} onChange={set('role')} />
      <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
        {busy ? 'Creating account...' : 'Sign Up'}
      </button>
    </form>
  );
}
