/**
 * Each language's completeness against English (`bun run i18n:status`): the share translated, and the keys missing
 * or broken. CI prints it; `--strict` exits 1 when a language offered by default is under 100%.
 */
import { LOCALE_CODES, PSEUDO_LOCALE, SOURCE_LOCALE } from '../src/contract/locales';
import { completeness } from '../src/i18n/catalogue';

let incomplete = 0;
for (const locale of LOCALE_CODES) {
  if (locale === SOURCE_LOCALE || locale === PSEUDO_LOCALE) continue;
  const { total, done, percent, missing, broken, extra } = completeness(locale);
  console.log(`${locale.padEnd(6)} ${String(percent).padStart(5)}%  ${done}/${total}`);
  if (missing.length)
    console.log(`       missing: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`);
  if (broken.length) console.log(`       broken ICU: ${broken.join(', ')}`);
  if (extra.length) console.log(`       not in English (unused): ${extra.slice(0, 20).join(', ')}`);
  if (done < total || broken.length) incomplete++;
}
if (process.argv.includes('--strict') && incomplete > 0) {
  console.log(`${incomplete} language(s) under 100%`);
  process.exit(1);
}
