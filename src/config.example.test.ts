import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');

test('.env.example and the README list every setting the server reads', () => {
  const source = readFileSync(join(root, 'src', 'config.ts'), 'utf8');
  const settings = [...source.matchAll(/^ {2}([A-Z_]+): /gm)].map((match) => match[1]);
  expect(settings.length).toBeGreaterThan(20);
  const example = readFileSync(join(root, '.env.example'), 'utf8');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  expect(settings.filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example))).toEqual([]);
  expect(settings.filter((name) => name !== 'WEB_DIR' && !readme.includes(`\`${name}\``))).toEqual([]);
});
