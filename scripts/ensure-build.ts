/** `bun run start` builds the web app first when no build exists. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

if (!existsSync(join(import.meta.dir, '..', 'dist', 'web', 'index.html'))) {
  const build = Bun.spawnSync(['bun', 'run', join(import.meta.dir, 'build-web.ts')], {
    stdout: 'inherit',
    stderr: 'inherit',
  });
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
}
