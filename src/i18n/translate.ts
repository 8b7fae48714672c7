/**
 * Words in the person's language on the server: error answers and mails (docs/translating.md). Logs stay English.
 * One @lingui/core instance per language, made on first use from its compiled catalogue.
 */
import { type I18n, setupI18n } from '@lingui/core';
import type { Context } from 'hono';
import type en from '../../locales/en.json';
import { isLocale, type Locale, matchLocale, parseAcceptLanguage, SOURCE_LOCALE } from '../contract/locales';
import { compileCatalogue } from './catalogue';

/** Every message of the catalogue, by key: a key missing from `locales/en.json` does not compile. */
export type MessageKey = keyof typeof en;
export type MessageValues = Record<string, string | number | Date>;

const instances = new Map<Locale, I18n>();

function instance(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: compileCatalogue(locale) } });
    instances.set(locale, i18n);
  }
  return i18n;
}

/** A message in `locale`; a text that is not a key (a school's own words) comes back as it is. */
export function translate(locale: Locale, key: MessageKey | (string & {}), values?: MessageValues): string {
  return instance(locale)._(key, values);
}

const sourceKeys = new Set(Object.keys(compileCatalogue(SOURCE_LOCALE)));
export const isMessageKey = (text: string): text is MessageKey => sourceKeys.has(text);

/** A translator bound to one language, for a mail or an answer of several sentences. */
export const translatorFor = (locale: Locale) => (key: MessageKey, values?: MessageValues) =>
  translate(locale, key, values);

/** The school's languages, as the server's config sets them (LOCALES, DEFAULT_LOCALE). */
export type SchoolLocales = { locales: readonly Locale[]; defaultLocale: Locale };

/** A person's language for a mail: their choice in Settings while the school offers it, else the school's. */
export function localeOfAccount(account: { locale: string | null }, school: SchoolLocales): Locale {
  return isLocale(account.locale) && school.locales.includes(account.locale) ? account.locale : school.defaultLocale;
}

/**
 * The language of an answer: the signed-in account's choice, else the browser's (Accept-Language, which our web
 * client sets to the language on screen), else the school's. A malformed or enormous header is read as far as it
 * makes sense, never an error.
 */
export function localeOfRequest(c: Context): Locale {
  const school = c.get('school') as SchoolLocales | undefined;
  if (!school) return SOURCE_LOCALE;
  const user = c.get('user') as { locale: string | null } | undefined;
  if (user && isLocale(user.locale) && school.locales.includes(user.locale)) return user.locale;
  return matchLocale(parseAcceptLanguage(c.req.header('accept-language')), school.locales) ?? school.defaultLocale;
}
