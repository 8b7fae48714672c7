import { errorMessage } from '@api/query-client';
import { formatLongDate } from '@lib/format';
import { schoolSignInUrl, useProviders } from '@lib/providers';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { FormError } from '@ui/FormError';
import { QueryState } from '@ui/QueryState';
import { useId, useState } from 'react';
import { isLastWayIn, type SignInMethods, useSignInMethods, useUnlinkSchool } from '../api/sign-in-methods';

type SchoolAccount = SignInMethods['school'][number];

/**
 * Settings → Linked sign-in: the ways into this account. A school account is linked only from here, signed in
 * (never by a matching email), and the last way in cannot be unlinked.
 */
export function LinkedSignIn({ justLinked, onDismiss }: { justLinked: boolean; onDismiss: () => void }) {
  const methods = useSignInMethods();
  const providers = useProviders();
  const unlink = useUnlinkSchool();
  const [asking, setAsking] = useState<SchoolAccount | null>(null);
  const reasonId = useId();

  const close = () => {
    setAsking(null);
    unlink.reset();
  };

  return (
    <section aria-labelledby={`${reasonId}-title`} className="flex flex-col gap-4">
      <div>
        <h2 id={`${reasonId}-title`} className="text-lg font-semibold text-slate-900">
          Linked sign-in
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The ways you can sign in to this account. A linked school account signs you in with one click.
        </p>
      </div>
      {justLinked && (
        <div role="status" className="flex items-start gap-3 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900">
          <p className="flex-1">Your school account is linked. From now on you can sign in with it.</p>
          <button type="button" className="link text-emerald-900" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
      <QueryState query={methods} label="your ways to sign in" compact>
        {(data) => {
          const last = isLastWayIn(data);
          return (
            <>
              <ul className="flex flex-col divide-y divide-slate-200 rounded-xl border border-slate-200">
                <li className="p-3 text-sm">
                  <p className="font-medium text-slate-900">Password</p>
                  <p className="text-slate-600">
                    {data.password ? 'You can sign in with your email and password.' : 'No password on this account.'}
                  </p>
                </li>
                {data.school.map((account) => (
                  <li key={account.id} className="flex flex-wrap items-center gap-3 p-3 text-sm">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-slate-900">School account</p>
                      <p className="text-slate-600 [overflow-wrap:anywhere]">
                        {account.email ?? 'No email given'} · linked{' '}
                        {formatLongDate(new Date(account.linkedAt).toISOString())}
                      </p>
                    </div>
                    <button
                      type="button"
                      className="btn btn-secondary"
                      disabled={last}
                      aria-describedby={last ? `${reasonId}-last` : undefined}
                      aria-label={`Unlink ${account.email ?? 'school account'}`}
                      onClick={() => setAsking(account)}
                    >
                      Unlink
                    </button>
                  </li>
                ))}
              </ul>
              {last && (
                <p id={`${reasonId}-last`} className="text-sm text-slate-600">
                  This school account is the only way into your account, so it cannot be unlinked.
                </p>
              )}
              {data.school.length === 0 &&
                (providers.data?.oidc ? (
                  <a href={schoolSignInUrl('/settings', 'link')} className="btn btn-primary self-start">
                    Link school account
                  </a>
                ) : providers.data ? (
                  <p className="text-sm text-slate-600">School sign-in is not set up on this server.</p>
                ) : null)}
            </>
          );
        }}
      </QueryState>
      <ConfirmDialog
        open={asking !== null}
        title="Unlink school account?"
        confirmLabel="Unlink"
        busyLabel="Unlinking..."
        busy={unlink.isPending}
        onConfirm={() => asking && unlink.mutate(asking.id, { onSuccess: close })}
        onClose={close}
      >
        <p>
          You will no longer be able to sign in with {asking?.email ?? 'this school account'}. You can link it again
          later.
        </p>
        <div className="mt-3">
          <FormError message={unlink.isError ? errorMessage(unlink.error) : ''} />
        </div>
      </ConfirmDialog>
    </section>
  );
}
