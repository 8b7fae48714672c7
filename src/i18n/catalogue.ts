/**
 * The message catalogues (`locales/<code>.json`: flat ICU JSON, one file per language, docs/translating.md) read,
 * checked and compiled for @lingui/core. Used by the server (errors and mails), by the web build (which writes each
 * language's compiled messages as its own chunk) and by `scripts/i18n-status.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CompiledMessage, compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { LOCALE_CODES, type Locale, PSEUDO_LOCALE, SOURCE_LOCALE } from '../contract/locales';
import { getEmbedded } from '../lib/embedded';

export type Catalogue = Record<string, string>;
export type CompiledCatalogue = Record<string, CompiledMessage>;

export const LOCALES_DIR = join(import.meta.dir, '..', '..', 'locales');

/** A language's catalogue as written (pseudo: made from English); a missing file is an empty catalogue. */
export function readCatalogue(locale: Locale): Catalogue {
  if (locale === PSEUDO_LOCALE) return pseudoCatalogue(readCatalogue(SOURCE_LOCALE));
  const embedded = getEmbedded()?.catalogues?.[locale];
  const path = join(LOCALES_DIR, `${locale}.json`);
  const text = embedded ?? (existsSync(path) ? readFileSync(path, 'utf8') : '{}');
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const catalogue: Catalogue = {};
  for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string' && value) catalogue[key] = value;
  return catalogue;
}

/**
 * A language's messages compiled, each missing or broken one taken from English alone (never a key or an empty
 * button). `keys` limits it to those (a web chunk's own).
 */
export function compileCatalogue(locale: Locale, keys?: Iterable<string>): CompiledCatalogue {
  const source = readCatalogue(SOURCE_LOCALE);
  const own = locale === SOURCE_LOCALE ? source : readCatalogue(locale);
  const compiled: CompiledCatalogue = {};
  for (const key of keys ?? Object.keys(source)) {
    const text = own[key] ?? source[key];
    if (text === undefined) continue;
    try {
      compiled[key] = compileMessageOrThrow(text);
    } catch {
      compiled[key] = compileMessageOrThrow(source[key] ?? key);
    }
  }
  return compiled;
}

/** What a language lacks against English: missing keys, and messages whose ICU does not parse. */
export function completeness(locale: Locale) {
  const source = readCatalogue(SOURCE_LOCALE);
  const own = readCatalogue(locale);
  const missing = Object.keys(source).filter((key) => own[key] === undefined);
  const broken = Object.keys(own).filter((key) => {
    try {
      compileMessageOrThrow(own[key]!);
      return false;
    } catch {
      return true;
    }
  });
  const extra = Object.keys(own).filter((key) => source[key] === undefined);
  const total = Object.keys(source).length;
  const done = total - missing.length - broken.filter((key) => source[key] !== undefined).length;
  return { locale, total, done, percent: total ? Math.floor((done / total) * 1000) / 10 : 100, missing, broken, extra };
}

export const allLocales = () => LOCALE_CODES;

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [
    letter,
    [...'áƀçðéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÅƁÇÐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ'][i]!,
  ]),
);

/**
 * English made strange but readable: every letter accented, 30% longer, bracketed. ICU stays ICU: only literal
 * text changes, never an argument's name, a plural's keyword or a tag.
 */
export function pseudoMessage(text: string): string {
  let out = '';
  let depth = 0;
  let letters = 0;
  // Inside braces: `{name}` or `{count, plural, one {…} other {…}}`: the words at depth 1 are syntax, the text
  // in a choice's own braces (depth 2, 4…) is message text again.
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "'" && (text[i + 1] === '{' || text[i + 1] === '}' || text[i + 1] === "'")) {
      const end = text.indexOf("'", i + 1);
      const quoted = end === -1 ? text.slice(i) : text.slice(i, end + 1);
      out += quoted;
      i += quoted.length - 1;
      continue;
    }
    if (char === '{') depth++;
    if (char === '}') depth--;
    const literal = depth % 2 === 0 && char !== '{' && char !== '}' && char !== '#';
    if (literal && ACCENTED[char]) {
      letters++;
      out += ACCENTED[char];
    } else out += char;
  }
  const padding = '·'.repeat(Math.max(1, Math.ceil(letters * 0.3)));
  return `[${out} ${padding}]`;
}

export function pseudoCatalogue(source: Catalogue): Catalogue {
  return Object.fromEntries(Object.entries(source).map(([key, text]) => [key, pseudoMessage(text)]));
}
