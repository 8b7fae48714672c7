import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The layering of docs/architecture.md is kept by lint, not by review: this runs the project's own biome.json over a
 * small tree that breaks each rule once, and over the same imports done right, and reads which rule Biome names.
 */
const root = join(import.meta.dir, '..');
const work = mkdtempSync(join(tmpdir(), 'classroom-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function lintTree(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(work, 'tree-'));
  // The schema path points into node_modules, which the scratch tree does not have.
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
  delete config.$schema;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify({ ...config, vcs: { enabled: false } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = Bun.spawnSync([join(root, 'node_modules', '.bin', 'biome'), 'lint', '--max-diagnostics=100', '.'], {
    cwd: dir,
  });
  const output = `${run.stdout.toString()}${run.stderr.toString()}`;
  return [...output.matchAll(/^(\S+):\d+:\d+ lint\/(\w+\/\w+)/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
}

test('lint refuses an import cycle, a feature importing another, a domain importing a route, jobs naming a domain', () => {
  expect(
    lintTree({
      'src/lib/x.ts': "import { y } from './y';\n\nexport const x = () => y;\n",
      'src/lib/y.ts': "import { x } from './x';\n\nexport const y = () => x;\n",
      'web/src/features/b/api/b.ts': 'export const b = 1;\n',
      'web/src/features/a/components/A.ts': "import { b } from '../../b/api/b';\n\nexport const a = b;\n",
      'web/src/ui/Thing.ts': "import { b } from '../features/b/api/b';\n\nexport const thing = b;\n",
      'src/routes/r.ts': 'export const r = 1;\n',
      'src/media/m.ts': "import { r } from '../routes/r';\n\nexport const m = r;\n",
      'src/media/work.ts': 'export const work = 1;\n',
      'src/jobs/j.ts': "import { work } from '../media/work';\n\nexport const j = work;\n",
    }),
  ).toEqual([
    'src/jobs/j.ts style/noRestrictedImports',
    'src/lib/x.ts suspicious/noImportCycles',
    'src/lib/y.ts suspicious/noImportCycles',
    'src/media/m.ts style/noRestrictedImports',
    'web/src/features/a/components/A.ts style/noRestrictedImports',
    'web/src/ui/Thing.ts style/noRestrictedImports',
  ]);
});

test('the same pieces composed the allowed way pass', () => {
  expect(
    lintTree({
      'src/lib/y.ts': 'export const y = () => 1;\n',
      'src/lib/x.ts': "import { y } from './y';\n\nexport const x = () => y;\n",
      'web/src/features/b/api/b.ts': 'export const b = 1;\n',
      'web/src/features/a/api/a.ts': 'export const a = 2;\n',
      'web/src/features/a/components/A.ts': "import { a } from '../api/a';\n\nexport const shown = a;\n",
      'web/src/routes/Page.ts':
        "import { shown } from '../features/a/components/A';\nimport { b } from '../features/b/api/b';\n\nexport const page = [shown, b];\n",
      'src/routes/r.ts': "import { x } from '../lib/x';\n\nexport const r = x;\n",
    }),
  ).toEqual([]);
});
