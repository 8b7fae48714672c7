import { errorMessage } from '@api/query-client';
import { rich, t } from '@lib/i18n';
import type { User } from '@lib/session';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { FormError } from '@ui/FormError';
import { PasswordInput } from '@ui/PasswordInput';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { deleteAccount } from '../api/account';
import { useSignInMethods } from '../api/sign-in-methods';
import { ConfirmWithSchool, useSchoolConfirmed } from './SchoolConfirm';

/** What goes with the account, said in the section and again in the "are you sure?" dialog. */
function WhatGoes({ user }: { user: User }) {
  return (
    <ul className="list-disc ps-5 text-sm text-slate-700">
      <li>{t(user.role === 'teacher' ? 'settings.delete.goesTeacher' : 'settings.delete.goesStudent')}</li>
      <li>{t('settings.delete.goesAll')}</li>
    </ul>
  );
}

/**
 * Deleting one's own account, confirmed with the password; says what goes with it. An account made by school
 * sign-in has no password: it confirms with the school account, and comes back to a dialog ready to delete.
 * Either way the last step is a "Delete your account?" dialog that says again what is lost.
 */
export function DeleteAccountForm({ user }: { user: User }) {
  const [password, setPassword] = useState('');
  const { signOut } = useSession();
  const navigate = useNavigate();
  const methods = useSignInMethods();
  const schoolOnly = methods.data?.password === false;
  const [confirmed, setConfirmed] = useSchoolConfirmed('delete');
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteAccount(user._id, schoolOnly ? undefined : password),
    meta: { quiet: true },
    onSuccess: () => {
      navigate('/login');
      signOut();
      toast.success(t('settings.delete.deleted'));
    },
    // A wrong password goes back to the field; the school confirmation keeps its dialog (it cannot be retyped).
    onError: () => setAsking(false),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    remove.reset();
    setAsking(true);
  };
  const open = schoolOnly ? confirmed : asking;
  const failed = remove.isError ? errorMessage(remove.error) : '';
  const dialog = (
    <ConfirmDialog
      open={open}
      title={t('settings.delete.confirmTitle')}
      confirmLabel={t('settings.delete.confirm')}
      busyLabel={t('common.deleting')}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onClose={() => (schoolOnly ? setConfirmed(false) : setAsking(false))}
    >
      {schoolOnly && <p className="mb-2">{t('settings.delete.confirmedSchool', { minutes: 5 })}</p>}
      <p className="mb-1">
        {rich(t('settings.delete.emailGoes', { email: user.email }), [
          (words) => (
            <strong key="email" className="break-all" translate="no">
              {words}
            </strong>
          ),
        ])}
      </p>
      <WhatGoes user={user} />
      {schoolOnly && <p className="mt-2">{t('settings.delete.newEmptyAccount')}</p>}
      {user.isAdmin && <p className="mt-2">{t('settings.delete.admin')}</p>}
      <p className="mt-2 font-medium">{t('settings.delete.cannotUndo')}</p>
      {schoolOnly && (
        <div className="mt-2">
          <FormError message={failed} />
        </div>
      )}
    </ConfirmDialog>
  );
  if (schoolOnly) {
    return (
      <section aria-labelledby="delete-account" className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6">
        <h2 id="delete-account" className="font-semibold text-red-700">
          {t('settings.delete.confirm')}
        </h2>
        <WhatGoes user={user} />
        <p className="text-sm text-slate-700">{t('settings.delete.schoolFirst')}</p>
        <FormError message={confirmed ? '' : failed} />
        <ConfirmWithSchool purpose="delete" danger />
        {dialog}
      </section>
    );
  }
  return (
    <>
      <form
        onSubmit={onSubmit}
        aria-labelledby="delete-account"
        className="mt-8 flex flex-col gap-3 border-t border-slate-200 pt-6"
      >
        <h2 id="delete-account" className="font-semibold text-red-700">
          {t('settings.delete.confirm')}
        </h2>
        <p className="text-sm text-slate-700">{t('settings.delete.alsoDeletes')}</p>
        <WhatGoes user={user} />
        <PasswordInput
          label={t('settings.delete.passwordLabel')}
          name="deletePassword"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <FormError message={failed} />
        <button type="submit" className="btn btn-danger self-start" disabled={remove.isPending || !password}>
          {t('settings.delete.submit')}
        </button>
      </form>
      {dialog}
    </>
  );
}
