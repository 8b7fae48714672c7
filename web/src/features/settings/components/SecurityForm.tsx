import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError } from '../../../api/client';
import { type FieldProblems, fieldProblems, loadSchemas } from '../../../lib/form-check';
import { toast } from '../../../lib/toast';
import { PasswordInput } from '../../../ui/PasswordInput';
import { useProviders } from '../../auth/api/providers';
import type { User } from '../../auth/api/users';
import { NewPasswordFields } from '../../auth/components/NewPasswordFields';
import { useChangePassword } from '../api/account';
import { signInMethodsQuery, useSignInMethods } from '../api/sign-in-methods';
import { ConfirmWithSchool, useSchoolConfirmed } from './SchoolConfirm';

/** The account routes' request schemas: the new password is checked by the server's own rule. */
const contract = () => loadSchemas(() => import('../../../../../src/contract/users'));

export function SecurityForm({ user }: { user: User }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const change = useChangePassword();
  const busy = change.isPending;
  const methods = useSignInMethods();
  const providers = useProviders();
  const queryClient = useQueryClient();
  // An account made by a school sign-in has no password; it may choose one after confirming with the school.
  const noPassword = methods.data?.password === false;
  const [confirmed, setConfirmed] = useSchoolConfirmed('password');
  /** Each field's problem, under it: the contract's words before sending, the server's after a refusal. */
  const [problems, setProblems] = useState<FieldProblems>({});
  const checks = useRef(0);
  async function check(values: { current: string; next: string; confirm: string }) {
    const found = await fieldProblems((await contract()).passwordBody, {
      currentPassword: noPassword ? undefined : values.current,
      newPassword: values.next,
    });
    // The second typing is the form's own check: the server never sees it.
    if (values.next !== values.confirm) found.confirm = "New passwords don't match";
    return found;
  }
  /** A field said to be wrong is checked again as it is typed: its problem goes (its hint comes back) once fixed. */
  function retype(field: 'currentPassword' | 'newPassword' | 'confirm', values: Parameters<typeof check>[0]) {
    const shown = Object.keys(problems).filter(
      (key) => key === field || (field === 'newPassword' && key === 'confirm'),
    );
    if (shown.length === 0) return;
    const at = ++checks.current;
    void check(values).then((found) => {
      if (at !== checks.current) return;
      setProblems((before) => {
        const after = { ...before };
        for (const key of shown) {
          if (found[key]) after[key] = found[key];
          else delete after[key];
        }
        return after;
      });
    });
  }
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    checks.current++;
    const found = await check({ current, next, confirm });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { id: user._id, current: noPassword ? undefined : current, next },
      {
        onSuccess: () => {
          toast.success(noPassword ? 'Your password is set' : 'Password updated successfully');
          if (noPassword) {
            setConfirmed(false);
            void queryClient.invalidateQueries({ queryKey: signInMethodsQuery().queryKey });
          }
          setCurrent('');
          setNext('');
          setConfirm('');
        },
        onError: (error) => {
          const refused = error instanceof ApiError && error.status > 0;
          if (refused && error.body.fields) setProblems(error.body.fields as FieldProblems);
          toast.error('Failed to update password. Please try again.', {
            description: refused ? error.message : undefined,
          });
        },
      },
    );
  }
  if (noPassword && (!confirmed || providers.data?.password === false)) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          Your account has no password: you sign in with your school account (see Linked sign-in).
        </p>
        {providers.data?.password && (
          <>
            <p className="text-sm text-slate-700">
              To sign in with a password as well, confirm it is you with your school account, then choose one.
            </p>
            <ConfirmWithSchool purpose="password" />
          </>
        )}
      </div>
    );
  }
  return (
    // noValidate: the contract's words under each field, rather than the browser's bubble (WebKit shows none).
    <form onSubmit={onSubmit} onFocus={() => void contract()} noValidate className="flex flex-col gap-4">
      {noPassword ? (
        <p className="text-sm text-slate-700">
          You confirmed with your school account. Choose your password within 5 minutes.
        </p>
      ) : (
        <PasswordInput
          label="Current password"
          name="currentPassword"
          value={current}
          onChange={(value) => {
            setCurrent(value);
            retype('currentPassword', { current: value, next, confirm });
          }}
          autoComplete="current-password"
          problem={problems.currentPassword}
        />
      )}
      <NewPasswordFields
        password={next}
        confirm={confirm}
        onPassword={(value) => {
          setNext(value);
          retype('newPassword', { current, next: value, confirm });
        }}
        onConfirm={(value) => {
          setConfirm(value);
          retype('confirm', { current, next, confirm: value });
        }}
        problems={{ password: problems.newPassword, confirm: problems.confirm }}
      />
      {/* The length rule is the new password's own hint: said once, where its problem would replace it. */}
      <p className="text-xs text-slate-600">Other devices will be signed out; this one stays signed in.</p>
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {busy ? 'Updating...' : noPassword ? 'Set Password' : 'Update Password'}
      </button>
    </form>
  );
}
