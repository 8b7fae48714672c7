import { errorMessage } from '@api/query-client';
import { formatLongDate } from '@lib/format';
import { rich, t } from '@lib/i18n';
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
          {t('settings.tab.linked')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('settings.linked.lead')}</p>
      </div>
      {justLinked && (
        <div role="status" className="flex items-start gap-3 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900">
          <p className="flex-1">{t('settings.linked.justLinked')}</p>
          <button type="button" className="link text-emerald-900" onClick={onDismiss}>
            {t('settings.linked.dismiss')}
          </button>
        </div>
      )}
      <QueryState query={methods} label={t('settings.linked.what')} compact>
        {(data) => {
          const last = isLastWayIn(data);
          return (
            <>
              <ul className="flex flex-col divide-y divide-slate-200 rounded-xl border border-slate-200">
                <li className="p-3 text-sm">
                  <p className="font-medium text-slate-900">{t('auth.password')}</p>
                  <p className="text-slate-600">
                    {t(data.password ? 'settings.linked.hasPassword' : 'settings.linked.noPassword')}
                  </p>
                </li>
                {data.school.map((account) => (
                  <li key={account.id} className="flex flex-wrap items-center gap-3 p-3 text-sm">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-slate-900">{t('settings.linked.schoolAccount')}</p>
                      <p className="text-slate-600 [overflow-wrap:anywhere]">
                        {rich(
                          t(account.email ? 'settings.linked.linkedOn' : 'settings.linked.linkedOnNoEmail', {
                            email: account.email ?? '',
                            date: formatLongDate(new Date(account.linkedAt).toISOString()),
                          }),
                          [
                            (words) => (
                              <span key="email" translate="no">
                                {words}
                              </span>
                            ),
                          ],
                        )}
                      </p>
                    </div>
                    <button
                      type="button"
                      className="btn btn-secondary"
                      disabled={last}
                      aria-describedby={last ? `${reasonId}-last` : undefined}
                      aria-label={
                        account.email
                          ? t('settings.linked.unlinkEmail', { email: account.email })
                          : t('settings.linked.unlinkAccount')
                      }
                      onClick={() => setAsking(account)}
                    >
                      {t('settings.linked.unlink')}
                    </button>
                  </li>
                ))}
              </ul>
              {last && (
                <p id={`${reasonId}-last`} className="text-sm text-slate-600">
                  {t('settings.linked.onlyWayIn')}
                </p>
              )}
              {data.school.length === 0 &&
                (providers.data?.oidc ? (
                  <a href={schoolSignInUrl('/settings', 'link')} className="btn btn-primary self-start">
                    {t('settings.linked.link')}
                  </a>
                ) : providers.data ? (
                  <p className="text-sm text-slate-600">{t('settings.linked.notSetUp')}</p>
                ) : null)}
            </>
          );
        }}
      </QueryState>
      <ConfirmDialog
        open={asking !== null}
        title={t('settings.linked.confirmTitle')}
        confirmLabel={t('settings.linked.unlink')}
        busyLabel={t('settings.linked.unlinking')}
        busy={unlink.isPending}
        onConfirm={() => asking && unlink.mutate(asking.id, { onSuccess: close })}
        onClose={close}
      >
        <p>
          {asking?.email
            ? rich(t('settings.linked.confirmText', { email: asking.email }), [
                (words) => (
                  <span key="email" translate="no">
                    {words}
                  </span>
                ),
              ])
            : t('settings.linked.confirmTextNoEmail')}
        </p>
        <div className="mt-3">
          <FormError message={unlink.isError ? errorMessage(unlink.error) : ''} />
        </div>
      </ConfirmDialog>
    </section>
  );
}
