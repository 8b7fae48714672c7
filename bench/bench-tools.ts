import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Packages a benchmark needs that neither the app nor its tests do (Lighthouse: 176 MB; Express and better-sqlite3
 * for a peer), installed once from the npm registry into `node_modules/.cache/bench-<name>`, which `npm install`
 * leaves alone. `ready` is a file that exists once the install worked. Answers that folder's `node_modules`.
 */
export function benchTool(name: string, packages: string[], ready: string): string {
  const modules = join(import.meta.dir, '..', 'node_modules', '.cache', `bench-${name}`, 'node_modules');
  if (existsSync(join(modules, ready))) return modules;
  const dir = join(modules, '..');
  mkdirSync(dir, { recursive: true });
  console.log(`  installing ${packages.join(', ')} for this benchmark into ${dir}…`);
  const install = Bun.spawnSync(
    ['npm', 'install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-fund', '--no-audit', ...packages],
    { stdout: 'ignore', stderr: 'pipe' },
  );
  if (install.exitCode !== 0)
    throw new Error(`npm install ${packages.join(' ')} failed: ${install.stderr.toString().slice(-500)}`);
  return modules;
}
