import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const webSource = join(import.meta.dir, '..', '..', 'web', 'src');

/** Every source file of the web app (its tests too: a test that writes 120 checks a copy, not the contract). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Ways a limit gets written as a number: a field's length or range attribute, a length compared with or cut to a
 * number, a `…_MAX`/`…Max` constant, a range in words ("1 to 12"). Progress bars (aria-valuemin/max 0–100) and sliders of 0–1 are not limits.
 */
const LITERAL_LIMITS: [string, RegExp][] = [
  ['a length attribute', /\b(maxLength|minLength)=\{?\s*['"]?\d/g],
  ['a range attribute', /(?<![-\w])(min=\{?\s*['"]?(?!0\b)\d|max=\{?\s*['"]?(?!1\b|100\b)\d)/g],
  ['a length compared with a number', /\.length\s*(<=?|>=?)\s*(?!0\b|1\b)\d/g],
  ['text cut to a number', /\.slice\(\s*0\s*,\s*\d{2,}\s*\)/g],
  ['a limit constant', /\b\w*(_MAX|_MIN|Max|Min)\b\s*=\s*\d/g],
  ['a range in words', /\b(?!0 to 1\b)\d+ to \d+\b/g],
];

/** Finds the literal limits in one file's text: `where (kind): line`. */
export function literalLimits(text: string): string[] {
  const found: string[] = [];
  for (const [kind, pattern] of LITERAL_LIMITS) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`${line} (${kind}): ${match[0]}`);
    }
  }
  return found;
}

test('the check finds the ways a literal limit is written, and passes what is not a limit', () => {
  expect(literalLimits('<input maxLength={120} />')).toHaveLength(1);
  expect(literalLimits('<input minLength="8" />')).toHaveLength(1);
  expect(literalLimits('<input type="number" min={1} max={12} />')).toHaveLength(2);
  expect(literalLimits("if (name.trim().length < 2) setError('…');")).toHaveLength(1);
  expect(literalLimits("name.slice(0, 120) || 'Untitled'")).toHaveLength(1);
  expect(literalLimits('export const SEARCH_MAX = 200;')).toHaveLength(1);
  expect(literalLimits('placeholder="Optional, 1 to 12"')).toHaveLength(1);
  expect(literalLimits('<input maxLength={LIMITS.topicNameMax} />')).toEqual([]);
  expect(literalLimits('<div aria-valuemin={0} aria-valuemax={100} />')).toEqual([]);
  expect(literalLimits('if (list.length > 0 && rows.length <= 1) {}')).toEqual([]);
  expect(literalLimits('<input type="range" min={0} max={1} />')).toEqual([]);
});

test('no file in web/src writes a limit as a number: they come from src/contract (LIMITS)', () => {
  const files = sourceFiles(webSource);
  expect(files.length).toBeGreaterThan(50);
  const found = files.flatMap((file) =>
    literalLimits(readFileSync(file, 'utf8')).map((where) => `${relative(webSource, file)}:${where}`),
  );
  expect(found).toEqual([]);
});
