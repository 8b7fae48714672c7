/**
 * Words in the person's language (docs/translating.md): `t('key', values)` reads the catalogue (`locales/<code>.json`,
 * ICU messages compiled by the build) with @lingui/core. The page the server sends names the language on screen
 * (`<meta name="i18n">`, from the `locale` cookie, else the browser's languages, else the school's) and preloads
 * that language's first messages; the rest load with the first signed-in page (lazy-page.tsx).
 */
import { directionOf, isLocale, type Locale, matchLocale, SOURCE_LOCALE } from '@contract/locales';
import { setupI18n } from '@lingui/core';
import type { ReactNode } from 'react';
import type en from '../../../locales/en.json';

export type MessageKey = keyof typeof en;
export type MessageValues = Record<string, string | number | Date>;

// Active from the start (English, no messages yet): a t() before the messages arrive reads its key, never throws.
export const i18n = setupI18n({ locale: SOURCE_LOCALE, messages: { [SOURCE_LOCALE]: {} } });

/** `<meta name="i18n" content="ar en en es ar">`: the page's language, the school's, then those offered. */
const [pageLocale, schoolLocale, ...offered] = (
  document.querySelector('meta[name=i18n]')?.getAttribute('content') ?? ''
).split(' ');
/** `<meta name="app">`: the whole app's style sheet and the messages' version (scripts/build-web.ts). */
const app: { css?: string; msg?: string } = JSON.parse(
  document.querySelector('meta[name=app]')?.getAttribute('content') ?? '{}',
);

/** The languages this school offers, in menu order. */
export const offeredLocales: Locale[] = offered.filter(isLocale);
export const schoolDefault: Locale = isLocale(schoolLocale) ? schoolLocale : SOURCE_LOCALE;

const LOCALE_COOKIE = 'locale';
const DEVICE_KEY = 'locale.device';
const cookieLocale = () => {
  const value = /(?:^|;\s*)locale=([^;]+)/.exec(document.cookie)?.[1];
  return isLocale(value) && offeredLocales.includes(value) ? value : undefined;
};

/**
 * The language on screen: the cookie's (a choice made here or the account's), else the page's (the server's pick);
 * a page kept by the offline worker may be in another language than the cookie's, and the cookie wins.
 */
export const locale: Locale =
  cookieLocale() ??
  (isLocale(pageLocale) ? pageLocale : (matchLocale(navigator.languages ?? [], offeredLocales) ?? schoolDefault));
export const direction = directionOf(locale);
/**
 * The locale `Intl` formats with: Arabic with Western digits, as the player's clock and every engine agree on
 * (WebKit's ICU writes ١٢٣ for `ar`, Chromium's 123: one page would mix both).
 */
export const intlLocale = locale === 'ar' ? 'ar-u-nu-latn' : locale;

/** A message in the language on screen. A key this language lacks reads in English (the build fills it in). */
export function t(key: MessageKey, values?: MessageValues): string {
  return i18n._(key, values);
}

/**
 * A message with marked parts (`Read the <0>guide</0>`) as React nodes: each `<n>…</n>` is drawn by `parts[n]`.
 * Translators move the marks with the words; text stays text (never HTML).
 */
export function rich(message: string, parts: Array<(children: string) => ReactNode>): ReactNode[] {
  const nodes: ReactNode[] = [];
  const pattern = /<(\d+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let match = pattern.exec(message); match; match = pattern.exec(message)) {
    if (match.index > last) nodes.push(message.slice(last, match.index));
    const draw = parts[Number(match[1])];
    nodes.push(draw ? draw(match[2]!) : match[2]);
    last = pattern.lastIndex;
  }
  if (last < message.length) nodes.push(message.slice(last));
  return nodes;
}

const messagesUrl = (part: 'first' | 'all') => `/assets/msg-${locale}-${part}-${app.msg}.js`;
let allLoaded: Promise<void> | undefined;

/** The first page's messages (already preloaded by the page): main.tsx waits for them before the first render. */
export async function loadFirstMessages(): Promise<void> {
  document.documentElement.lang = locale;
  document.documentElement.dir = direction;
  if (!app.msg) return;
  const module: { default: Record<string, unknown> } = await import(/* @vite-ignore */ messagesUrl('first'));
  // load() merges: the first messages are a part of all of them, whichever arrives first.
  i18n.load(locale, module.default as never);
  i18n.activate(locale, [intlLocale]);
}

/** Every message of the app in this language: what each page but the sign-in ones waits for. */
export function loadAllMessages(): Promise<void> {
  if (!app.msg) return Promise.resolve();
  allLoaded ??= import(/* @vite-ignore */ messagesUrl('all')).then(
    (module: { default: Record<string, unknown> }) => {
      i18n.load(locale, module.default as never);
      i18n.activate(locale, [intlLocale]);
    },
    (error: unknown) => {
      allLoaded = undefined;
      throw error;
    },
  );
  return allLoaded;
}

let stylesLoaded: Promise<void> | undefined;
/** The whole app's style sheet (the first page carries only its own): added once, waited for by lazy pages. */
export function loadAppStyles(): Promise<void> {
  if (!app.css || document.querySelector(`link[href="${app.css}"]`)) return stylesLoaded ?? Promise.resolve();
  stylesLoaded = new Promise<void>((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = app.css as string;
    link.onload = () => resolve();
    link.onerror = () => {
      link.remove();
      stylesLoaded = undefined;
      reject(new Error('styles'));
    };
    document.head.append(link);
  });
  return stylesLoaded;
}

function writeCookie(value: Locale | undefined) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads it to send the page in this language
  document.cookie = value
    ? `${LOCALE_COOKIE}=${value}; Max-Age=31536000; Path=/; SameSite=Lax${secure}`
    : `${LOCALE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

/** This device's choice from the sign-in page's menu (kept across people: it is the computer's, not an account's). */
export function deviceLocale(): Locale | undefined {
  try {
    const value = localStorage.getItem(DEVICE_KEY);
    return isLocale(value) && offeredLocales.includes(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Set when the language changed on signing in: the next page opened reloads in it (see reloadIfLanguageChanged). */
let reloadAtNextPage = false;

/** Called as each page opens: after a sign-in changed the language, the page the person went to reloads in it. */
export function reloadIfLanguageChanged() {
  if (reloadAtNextPage) location.reload();
}

/**
 * Shows the app in `next` from now on: the page reloads in it (every message and format follows). `atNextPage`:
 * not here but at the next page opened (a sign-in reloads where it leads, not on the sign-in form).
 */
export function switchLocale(next: Locale | undefined, { device = false, atNextPage = false } = {}) {
  if (device) {
    try {
      if (next) localStorage.setItem(DEVICE_KEY, next);
      else localStorage.removeItem(DEVICE_KEY);
    } catch {}
  }
  writeCookie(next);
  const shown = next ?? matchLocale(navigator.languages ?? [], offeredLocales) ?? schoolDefault;
  if (shown === locale) return;
  if (atNextPage) reloadAtNextPage = true;
  else location.reload();
}

/**
 * After sign-in (and at each start): the account's language wins while it is signed in. Without one, the device's
 * choice (or the browser's) applies again: what the last person chose never stays for the next one.
 */
export function followAccountLocale(accountLocale: string | null | undefined, { atNextPage = false } = {}) {
  const chosen = isLocale(accountLocale) && offeredLocales.includes(accountLocale) ? accountLocale : deviceLocale();
  if (cookieLocale() !== chosen) switchLocale(chosen, { atNextPage });
}
