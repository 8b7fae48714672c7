/**
 * Builds one executable (`dist/classroom`) that carries the web assets and the migrations inside it,
 * so it runs from an empty folder. Run through `bun run compile`, which builds the web app first.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dir, '..');
const webDir = join(root, 'dist', 'web');
const buildDir = join(root, 'build');
mkdirSync(buildDir, { recursive: true });

const journalOf = (folder: string) =>
  JSON.parse(readFileSync(join(root, folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
const journal = journalOf('migrations');
/** PostgreSQL's migrations too, so the binary runs with DATABASE_URL. */
const pgJournal = journalOf(join('migrations', 'pg'));
const webFiles: string[] = [];
const walk = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else webFiles.push(path);
  }
};
walk(webDir);

const lines = ["import { setEmbedded } from '../src/lib/embedded';"];
journal.entries.forEach(({ tag }, i) => {
  lines.push(`import migration${i} from '../migrations/${tag}.sql' with { type: 'text' };`);
});
pgJournal.entries.forEach(({ tag }, i) => {
  lines.push(`import pgMigration${i} from '../migrations/pg/${tag}.sql' with { type: 'text' };`);
});
webFiles.forEach((path, i) => {
  lines.push(`import web${i} from '${relative(buildDir, path).split(sep).join('/')}' with { type: 'file' };`);
});
const catalogues = readdirSync(join(root, 'locales')).filter((name) => /^[a-zA-Z-]+\.json$/.test(name));
catalogues.forEach((name, i) => {
  lines.push(`import catalogue${i} from '../locales/${name}' with { type: 'text' };`);
});
lines.push('setEmbedded({');
lines.push(
  `  catalogues: { ${catalogues.map((name, i) => `'${name.replace('.json', '')}': catalogue${i}`).join(', ')} },`,
);
lines.push(
  `  migrations: [${journal.entries.map(({ tag }, i) => `{ tag: '${tag}', sql: migration${i} }`).join(', ')}],`,
);
lines.push(
  `  postgresMigrations: [${pgJournal.entries.map(({ tag }, i) => `{ tag: '${tag}', sql: pgMigration${i} }`).join(', ')}],`,
);
lines.push('  webFiles: new Map<string, string>([');
webFiles.forEach((path, i) => {
  lines.push(`    ['/${relative(webDir, path).split(sep).join('/')}', web${i}],`);
});
lines.push('  ]),');
lines.push('});');
lines.push("await import('../src/main');");
writeFileSync(join(buildDir, 'compile-entry.ts'), `${lines.join('\n')}\n`);

const outfile = join(root, 'dist', 'classroom');
const result = Bun.spawnSync(
  ['bun', 'build', '--compile', '--minify', join(buildDir, 'compile-entry.ts'), '--outfile', outfile],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
);
if (result.exitCode !== 0) process.exit(result.exitCode ?? 1);
console.log(`Compiled ${outfile} (${(statSync(outfile).size / 1024 / 1024).toFixed(0)} MiB)`);
