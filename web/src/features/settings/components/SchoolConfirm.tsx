import { t } from '@lib/i18n';
import { schoolSignInUrl } from '@lib/providers';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/** What a confirmation with the school account is for: the Settings address it comes back to says so. */
export type ConfirmPurpose = 'delete' | 'password';

/**
 * Back from confirming with the school account (`/settings?confirmed=delete|password`): true once for that
 * purpose, and the address bar is cleaned. The server decides whether the confirmation holds (its `reauth`
 * cookie, 5 minutes); a refusal there shows its message and the button again.
 */
export function useSchoolConfirmed(purpose: ConfirmPurpose) {
  const [params, setParams] = useSearchParams();
  const [confirmed, setConfirmed] = useState(() => params.get('confirmed') === purpose);
  useEffect(() => {
    if (params.get('confirmed') === purpose) {
      setParams(
        (current) => {
          current.delete('confirmed');
          return current;
        },
        { replace: true },
      );
    }
  }, [params, setParams, purpose]);
  return [confirmed, setConfirmed] as const;
}

/** Sends the person to sign in at the school again, coming back to Settings for `purpose`. */
export function ConfirmWithSchool({ purpose, danger = false }: { purpose: ConfirmPurpose; danger?: boolean }) {
  return (
    <a
      href={`${schoolSignInUrl(`/settings?confirmed=${purpose}`)}&intent=confirm`}
      className={`btn ${danger ? 'btn-danger' : 'btn-primary'} self-start`}
    >
      {t('settings.confirmWithSchool')}
    </a>
  );
}
