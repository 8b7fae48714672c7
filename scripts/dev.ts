/**
 * `bun run dev`: the server under `bun --watch` (restarts when its code changes), and the web app rebuilt
 * whenever a file under web/ or src/contract/ changes, with the server restarted to serve the new build.
 * Reload the page to see a web change.
 */
import { watch } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');
const build = () =>
  Bun.spawnSync(['bun', 'run', join(root, 'scripts', 'build-web.ts')], { stdout: 'inherit', stderr: 'inherit' });

let server: ReturnType<typeof Bun.spawn> | undefined;
async function startServer() {
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
  server = Bun.spawn(['bun', '--watch', join(root, 'src', 'main.ts')], {
    cwd: root,
    stdout: 'inherit',
    stderr: 'inherit',
  });
}

build();
await startServer();

let timer: ReturnType<typeof setTimeout> | undefined;
const onChange = (_event: string, file: string | null) => {
  if (file && /(^|\/)(node_modules|dist)\//.test(file)) return;
  clearTimeout(timer);
  // Editors save in bursts: rebuild once they are done.
  timer = setTimeout(async () => {
    console.log(`[dev] ${file ?? 'web'} changed: rebuilding the web app`);
    if (build().exitCode === 0) await startServer();
  }, 150);
};
watch(join(root, 'web'), { recursive: true }, onChange);
watch(join(root, 'src', 'contract'), { recursive: true }, onChange);

const stop = () => {
  server?.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
