import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SQL } from 'bun';

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

/** With --database-url: a fresh database on that server for this run, the server's settings for it, and its drop. */
export async function benchDatabase(databaseUrl: string | undefined) {
  if (!databaseUrl) return { env: {} as Record<string, string>, drop: async () => {} };
  const name = `bench_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = new SQL(databaseUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href, JWT_SECRET: 'bench-secret-of-at-least-32-characters!' },
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
