/**
 * The languages the product speaks (docs/translating.md). Adding one is its catalogue (`locales/<code>.json`) and
 * one line here. `en` is the source: every other catalogue falls back to it, string by string.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  // The pseudo-language: English accented, 30% longer and bracketed, made from `en` by the build. Offered only
  // when LOCALES names it; CI renders every screen in it, and any plain English word left is a string not in the
  // catalogue.
  { code: 'en-XA', name: '[Ƥšéúðö]', dir: 'ltr' },
] as const;

export type Locale = (typeof LANGUAGES)[number]['code'];
export const SOURCE_LOCALE: Locale = 'en';
export const PSEUDO_LOCALE: Locale = 'en-XA';
export const LOCALE_CODES = LANGUAGES.map((language) => language.code) as readonly Locale[];

export const isLocale = (code: unknown): code is Locale =>
  typeof code === 'string' && (LOCALE_CODES as readonly string[]).includes(code);

export const directionOf = (locale: Locale) => LANGUAGES.find((language) => language.code === locale)?.dir ?? 'ltr';

/** The longest language tag we read; anything longer is not a language (and is not looked at further). */
const TAG_MAX = 35;
/** An Accept-Language header longer than this is read only up to here. */
const HEADER_MAX = 500;

/**
 * The first of `wanted` (a browser's languages, best first) that `offered` has: an exact match (`pt-BR`), else the
 * same language (`es-MX` → `es`, `pt-PT` → `pt-BR`). Malformed tags are skipped; nothing found answers undefined.
 */
export function matchLocale(wanted: readonly string[], offered: readonly Locale[]): Locale | undefined {
  const tags = wanted
    .slice(0, 20)
    .filter(
      (tag) => typeof tag === 'string' && tag.length <= TAG_MAX && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag),
    );
  for (const tag of tags) {
    const exact = offered.find((code) => code.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = tag.split('-')[0]!.toLowerCase();
    const same = offered.find((code) => code !== PSEUDO_LOCALE && code.split('-')[0]!.toLowerCase() === language);
    if (same) return same;
  }
  return undefined;
}

/** An Accept-Language header's languages, best first (q=0 dropped); a malformed part is skipped, never an error. */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, HEADER_MAX)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([01](\.\d{0,3})?)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}
