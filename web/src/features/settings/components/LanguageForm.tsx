import { ApiError } from '@api/client';
import { isLocale, LANGUAGES, type Locale } from '@contract/locales';
import { useForm } from '@lib/form';
import { offeredLocales, switchLocale, t } from '@lib/i18n';
import type { User } from '@lib/session';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { type FormEvent, useState } from 'react';
import { useChangeLocale } from '../api/account';

/** The select's value for "no choice": the browser's language (else the school's) is shown. */
const AUTOMATIC = '';

const nameOf = (code: Locale) => LANGUAGES.find((language) => language.code === code)?.name ?? code;

/**
 * Settings → Language: the account's language, kept on the server so it follows the person to every device, or
 * "Automatic". Once saved, the app reloads in it. A refusal (a language the school no longer offers) changes nothing.
 * `offered` and `onSwitch` are the page's languages and `switchLocale`, given otherwise by tests only.
 */
export function LanguageForm({
  user,
  onSaved,
  offered = offeredLocales,
  onSwitch = switchLocale,
}: {
  user: User;
  onSaved: (user: User) => void;
  offered?: readonly Locale[];
  onSwitch?: (locale: Locale | undefined) => void;
}) {
  // A language the school no longer offers is not followed: "Automatic" is what shows.
  const [choice, setChoice] = useState<string>(() =>
    isLocale(user.locale) && offered.includes(user.locale) ? user.locale : AUTOMATIC,
  );
  // No schema to load: the choice is one of the listed languages, and the server's refusal still comes back here.
  const form = useForm({
    mutation: useChangeLocale(),
    send: ({ locale }: { locale: Locale | null }) => ({ id: user._id, locale }),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void form.submit(
      { locale: isLocale(choice) ? choice : null },
      {
        onSuccess: (updated) => {
          onSaved(updated);
          toast.success(t('settings.language.saved'));
          onSwitch(isLocale(updated.locale) ? updated.locale : undefined);
        },
        onError: (error) =>
          toast.error(t('settings.language.failed'), {
            description: error instanceof ApiError && error.status ? error.message : undefined,
          }),
      },
    );
  }

  return (
    <section className="card mt-6 p-6" aria-labelledby="language-title">
      <h2 id="language-title" className="text-lg font-semibold text-slate-900">
        {t('common.language')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('settings.language.lead')}</p>
      <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-4" noValidate>
        <Field label={t('settings.language.label')} id="account-language" problem={form.problems.locale}>
          {(wiring) => (
            <select
              {...wiring}
              className="input aria-invalid:border-red-500"
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
            >
              <option value={AUTOMATIC}>{t('settings.language.automatic')}</option>
              {offered.map((code) => (
                <option key={code} value={code} lang={code} translate="no">
                  {nameOf(code)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="btn btn-primary self-start" disabled={form.busy}>
          {t(form.busy ? 'common.saving' : 'common.save')}
        </button>
      </form>
    </section>
  );
}
