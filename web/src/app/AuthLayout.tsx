import type { Locale } from '@contract/locales';
import { LANGUAGES } from '@contract/locales';
import { locale, offeredLocales, switchLocale, t } from '@lib/i18n';
import type { ReactNode } from 'react';

/** The language menu of the pages before sign-in: this device's choice, kept after the next person signs out. */
function LanguageMenu() {
  // One language offered: nothing to choose.
  if (offeredLocales.length <= 1) return null;
  return (
    <label className="absolute end-4 top-4 flex items-center gap-2 text-sm text-slate-600">
      <span className="sr-only">{t('common.language')}</span>
      <svg
        width={18}
        height={18}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        aria-hidden="true"
      >
        <circle cx="12" cy="12" r="10" />
        <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
      </svg>
      <select
        className="h-11 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800"
        value={locale}
        onChange={(event) => switchLocale(event.target.value as Locale, { device: true })}
      >
        {offeredLocales.map((code) => (
          <option key={code} value={code} lang={code} translate="no">
            {LANGUAGES.find((language) => language.code === code)?.name ?? code}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="relative flex min-h-dvh flex-col items-center justify-center bg-gradient-to-br from-indigo-50 via-white to-sky-50 px-4 pt-20 pb-10">
      <LanguageMenu />
      <div className="mb-6 flex items-center gap-2 text-slate-900">
        <span className="flex size-10 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm">
          {/* Drawn here rather than taken from icons.tsx: the sign-in page then loads no icon chunk (bench:web). */}
          <svg
            width={22}
            height={22}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
          >
            <path d="M22 10 12 5 2 10l10 5z" />
            <path d="M6 12v5c3 2 9 2 12 0v-5" />
          </svg>
        </span>
        <span className="text-2xl font-semibold tracking-tight" translate="no">
          Classroom
        </span>
      </div>
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {children}
      </div>
    </main>
  );
}
