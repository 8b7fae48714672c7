import { ApiError } from '@api/client';
import { useForm } from '@lib/form';
import { type MessageKey, t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { LoadError } from '@ui/QueryState';
import { type FormEvent, useEffect, useState } from 'react';
import { type EmailChoice, useNotificationPrefs, useSaveNotificationPrefs } from '../api/notification-prefs';

const CHOICES: { value: EmailChoice; label: MessageKey; hint: MessageKey }[] = [
  { value: 'every', label: 'settings.email.every', hint: 'settings.email.everyHint' },
  { value: 'daily', label: 'settings.email.daily', hint: 'settings.email.dailyHint' },
  { value: 'none', label: 'settings.email.none', hint: 'settings.email.noneHint' },
];

/**
 * Settings: which notification emails the person gets. The form stays disabled until the saved choice has loaded
 * (a failed load shows Retry, never a default a save could overwrite).
 */
export function NotificationSettings() {
  const prefs = useNotificationPrefs();
  // No schema to load: the choice is one of three radios, and the server's refusal still comes back through it.
  const form = useForm({ mutation: useSaveNotificationPrefs() });
  const [choice, setChoice] = useState<EmailChoice | null>(null);
  const [saved, setSaved] = useState(false);
  const loaded = prefs.data?.email;
  useEffect(() => {
    if (loaded) setChoice((current) => current ?? loaded);
  }, [loaded]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!choice) return;
    setSaved(false);
    void form.submit(
      { email: choice },
      {
        onSuccess: () => {
          setSaved(true);
          toast.success(t('settings.email.saved'));
        },
        onError: (error) =>
          toast.error(t('settings.email.failed'), {
            description: error instanceof ApiError && error.status ? error.message : undefined,
          }),
      },
    );
  }

  const ready = choice !== null;
  return (
    <section className="card mt-6 p-6" aria-labelledby="email-notifications-title">
      <h2 id="email-notifications-title" className="text-lg font-semibold text-slate-900">
        {t('settings.email.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('settings.email.lead')}</p>
      {prefs.isError && !ready ? (
        <div className="mt-4">
          <LoadError label={t('settings.email.what')} query={prefs} />
        </div>
      ) : (
        <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-4" aria-busy={!ready}>
          <fieldset className="flex flex-col gap-3" disabled={!ready || form.busy}>
            <legend className="sr-only">{t('settings.email.sendMe')}</legend>
            {CHOICES.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50"
              >
                <input
                  type="radio"
                  name="email-notifications"
                  value={option.value}
                  checked={choice === option.value}
                  onChange={() => {
                    setChoice(option.value);
                    setSaved(false);
                  }}
                  className="mt-1 h-4 w-4 accent-indigo-600"
                />
                <span>
                  <span className="block font-medium text-slate-900">{t(option.label)}</span>
                  <span className="block text-sm text-slate-600">{t(option.hint)}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" className="btn btn-primary" disabled={!ready || form.busy}>
              {t(form.busy ? 'common.saving' : ready ? 'common.save' : 'common.loadingDots')}
            </button>
            <p role="status" className="text-sm text-green-700">
              {saved ? t('common.saved') : ''}
            </p>
          </div>
        </form>
      )}
    </section>
  );
}
