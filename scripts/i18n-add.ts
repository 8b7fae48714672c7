/**
 * Adds or replaces messages in every catalogue at once: `bun run scripts/i18n-add.ts entries.json`, where the file
 * holds `{ "area.key": { "en": "…", "es": "…", "fr": "…", "pt-BR": "…", "hi": "…", "ar": "…" } }`. Each message is
 * checked as ICU first; the catalogues stay sorted by key. A lock folder lets several of these run at once.
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { LOCALE_CODES, PSEUDO_LOCALE } from '../src/contract/locales';
import { LOCALES_DIR } from '../src/i18n/catalogue';

const file = process.argv[2];
if (!file) {
  console.error('Usage: bun run scripts/i18n-add.ts entries.json');
  process.exit(2);
}
const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
const locales = LOCALE_CODES.filter((code) => code !== PSEUDO_LOCALE);
const problems: string[] = [];
for (const [key, texts] of Object.entries(entries)) {
  if (!/^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/.test(key)) problems.push(`${key}: keys are dotted camelCase (area.name)`);
  if (!texts.en) problems.push(`${key}: no English`);
  for (const [locale, text] of Object.entries(texts)) {
    if (!(locales as readonly string[]).includes(locale)) problems.push(`${key}: unknown language ${locale}`);
    try {
      compileMessageOrThrow(text);
    } catch (error) {
      problems.push(`${key} (${locale}): ${(error as Error).message}`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}

const lock = join(LOCALES_DIR, '.lock');
for (let attempt = 0; ; attempt++) {
  try {
    mkdirSync(lock);
    break;
  } catch {
    if (attempt > 600) throw new Error(`${lock} held for a minute: remove it if no i18n-add is running`);
    await Bun.sleep(100);
  }
}
try {
  for (const locale of locales) {
    const path = join(LOCALES_DIR, `${locale}.json`);
    let catalogue: Record<string, string> = {};
    try {
      catalogue = JSON.parse(readFileSync(path, 'utf8'));
    } catch {}
    for (const [key, texts] of Object.entries(entries)) if (texts[locale]) catalogue[key] = texts[locale];
    const sorted = Object.fromEntries(Object.entries(catalogue).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
  }
} finally {
  rmdirSync(lock);
}
console.log(`${Object.keys(entries).length} messages written to ${locales.length} catalogues`);
