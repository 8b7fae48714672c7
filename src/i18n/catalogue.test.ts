import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, LOCALE_CODES, matchLocale, parseAcceptLanguage } from '../contract/locales';
import { completeness, pseudoMessage, readCatalogue } from './catalogue';
import { translate } from './translate';

const root = join(import.meta.dir, '..', '..');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
const code = [...sources(join(root, 'src')), ...sources(join(root, 'web', 'src'))].map((path) => ({
  path,
  text: readFileSync(path, 'utf8'),
}));

test('every language is a catalogue and one line: each listed language has its file, each file its line', () => {
  const files = readdirSync(join(root, 'locales'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.replace('.json', ''))
    .sort();
  expect(files).toEqual(LOCALE_CODES.filter((code) => code !== 'en-XA').sort());
  expect(LANGUAGES.filter((language) => language.dir === 'rtl').map((language) => language.code)).toEqual(['ar']);
});

test('every shipped language is complete, and every message is valid ICU', () => {
  for (const locale of LOCALE_CODES.filter((code) => code !== 'en' && code !== 'en-XA')) {
    const { missing, broken } = completeness(locale);
    expect({ locale, missing, broken }).toEqual({ locale, missing: [], broken: [] });
  }
});

test('keys are literals: no message key is built at run time, and every key in the catalogue is used', () => {
  const built = code.filter(({ text }) => /\bt\(`/.test(text)).map(({ path }) => path);
  expect(built).toEqual([]);
  const all = code.map(({ text }) => text).join('\n');
  const unused = Object.keys(readCatalogue('en')).filter(
    (key) => !all.includes(`'${key}'`) && !all.includes(`"${key}"`),
  );
  expect(unused).toEqual([]);
});

test('plural forms: Arabic has its six, English its two', () => {
  const wait = (locale: 'ar' | 'en', count: number) => translate(locale, 'errors.waitBeforeNewCode', { count });
  // zero, one, two, few (3–10), many (11–99), other (100…): each count takes its own form.
  expect([0, 1, 2, 3, 11, 100].map((count) => wait('ar', count))).toEqual([
    'يُرجى الانتظار 0 ثانية قبل طلب رمز جديد.',
    'يُرجى الانتظار ثانية واحدة قبل طلب رمز جديد.',
    'يُرجى الانتظار ثانيتين قبل طلب رمز جديد.',
    'يُرجى الانتظار 3 ثوانٍ قبل طلب رمز جديد.',
    'يُرجى الانتظار 11 ثانية قبل طلب رمز جديد.',
    'يُرجى الانتظار 100 ثانية قبل طلب رمز جديد.',
  ]);
  expect([1, 2].map((count) => wait('en', count))).toEqual([
    'Please wait 1 second before asking for a new code.',
    'Please wait 2 seconds before asking for a new code.',
  ]);
  expect(translate('en', 'format.eta.minutes', { minutes: 1 })).toBe('about 1 min left');
});

test('the pseudo-language is accented, longer and bracketed, and keeps every argument and plural intact', () => {
  const text = pseudoMessage('Hello {name}, {count, plural, one {# new lecture} other {# new lectures}}');
  expect(text.startsWith('[') && text.endsWith(']')).toBe(true);
  expect(text).toContain('{name}');
  expect(text).toContain('{count, plural, one {# ñéŵ ĺéçţúŕé} other {# ñéŵ ĺéçţúŕéš}}');
  expect(text.replace(/\{[a-z]+[,}]|plural|one|other/g, '')).not.toMatch(/[A-Za-z]{3,}/);
  expect(translate('en-XA', 'format.eta.minutes', { minutes: 3 })).toMatch(/^\[áƀóúţ 3 ɱíñ ĺéƒţ ·+\]$/);
});

test('a browser language is matched by region, then by language; malformed and enormous headers fall back', () => {
  const offered = ['en', 'es', 'pt-BR', 'ar'] as const;
  expect(matchLocale(parseAcceptLanguage('es-MX,es;q=0.9,en;q=0.8'), [...offered])).toBe('es');
  expect(matchLocale(parseAcceptLanguage('pt-PT'), [...offered])).toBe('pt-BR');
  expect(matchLocale(parseAcceptLanguage('fr;q=1, ar;q=0.5'), [...offered])).toBe('ar');
  expect(matchLocale(parseAcceptLanguage('xx-YY, ;;;, q=bad'), [...offered])).toBeUndefined();
  expect(matchLocale(parseAcceptLanguage(`${'a'.repeat(10_000)},es`), [...offered])).toBeUndefined();
  expect(matchLocale(parseAcceptLanguage('ar;q=0, es'), [...offered])).toBe('es');
});

test('a message missing or broken in one language reads in English for that message alone, never as its key', async () => {
  const { getEmbedded, setEmbedded } = await import('../lib/embedded');
  const before = getEmbedded();
  const english = readFileSync(join(root, 'locales', 'en.json'), 'utf8');
  try {
    // Spanish with one message translated, one broken (unclosed ICU), and every other one missing.
    setEmbedded({
      migrations: [],
      postgresMigrations: [],
      webFiles: new Map(),
      catalogues: {
        en: english,
        es: JSON.stringify({ 'auth.logIn': 'Iniciar sesión', 'auth.password': '{broken' }),
      },
    });
    const { compileCatalogue } = await import('./catalogue');
    const spanish = compileCatalogue('es');
    const source = compileCatalogue('en');
    expect(spanish['auth.logIn']).toEqual(['Iniciar sesión']);
    expect(spanish['auth.password']).toEqual(source['auth.password']);
    expect(spanish['auth.forgotPassword']).toEqual(source['auth.forgotPassword']);
    expect(Object.keys(spanish).length).toBe(Object.keys(source).length);
  } finally {
    if (before) setEmbedded(before);
    else (globalThis as { __classroomEmbedded?: unknown }).__classroomEmbedded = undefined;
  }
});

test('a control shows words its spoken name contains, in every language (WCAG 2.5.3, axe label-content-name-mismatch)', () => {
  // `<button aria-label={t('a', …)} …>{t('b')}</button>`: someone using speech input says what they see.
  const pairs = code.flatMap(({ path, text }) =>
    [...text.matchAll(/aria-label=\{t\('([\w.]+)'(?:[^<>]|=>)*?>\s*\{t\('([\w.]+)'\)\}\s*<\/(?:button|a|Link)>/g)].map(
      ([, label, shown]) => ({ path: path.slice(root.length + 1), label: label as string, shown: shown as string }),
    ),
  );
  expect(pairs.length).toBeGreaterThan(5);
  const mismatches = LOCALE_CODES.filter((locale) => locale !== 'en-XA').flatMap((locale) =>
    pairs
      .map(({ path, label, shown }) => ({
        locale,
        path,
        label: translate(locale, label, { name: 'Ana', count: 2, n: 2, time: '1:00' }),
        shown: translate(locale, shown, { count: 2, n: 2 }),
      }))
      .filter(({ label, shown }) => !label.toLocaleLowerCase(locale).includes(shown.toLocaleLowerCase(locale))),
  );
  expect(mismatches).toEqual([]);
});
