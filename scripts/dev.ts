/**
 * `bun run dev`: the development loop.
 * - The web app from Bun's HTML dev server with hot reload: a changed component or style shows in the open page
 *   at once (React Fast Refresh keeps its state), with no build and no restart.
 * - Tailwind's CLI in watch mode writes the CSS the page links; a new class name shows the same way.
 * - The API server under `bun --watch` (it restarts when its code changes); the dev server passes /api and
 *   /media on to it, with the page's own Host, so cookies and the same-site checks work as in production.
 *
 * Open http://localhost:3000 (PORT); the API listens on API_PORT (PORT + 1). `--root <dir>` runs another copy of
 * the checkout (its web/ and src/; the dev loop's test runs a temporary copy it may edit).
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LOCALE_CODES, SOURCE_LOCALE } from '../src/contract/locales';
import { apiUnavailableBody } from '../src/http/api-unavailable';
import { compileCatalogue } from '../src/i18n/catalogue';

const { values: args } = parseArgs({ args: Bun.argv.slice(2), options: { root: { type: 'string' } } });
const root = resolve(args.root ?? join(import.meta.dir, '..'));
const webDir = join(root, 'web');
if (!existsSync(join(webDir, 'src', 'main.tsx')) || !existsSync(join(root, 'src', 'main.ts'))) {
  console.error(`[dev] ${root} is not a checkout of the classroom (no web/src/main.tsx or src/main.ts).`);
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? port + 1);
const host = process.env.DEV_HOST ?? 'localhost';
const apiBase = `http://127.0.0.1:${apiPort}`;
const publicUrl = `http://${host}:${port}`;

// The page the dev server bundles: web/index.html with the stylesheet Tailwind writes and the app's entry.
const work = mkdtempSync(join(tmpdir(), 'classroom-dev-'));
const cssFile = join(work, 'styles.css');
const from = (path: string) => relative(work, path).split('\\').join('/');
writeFileSync(
  join(work, 'index.html'),
  readFileSync(join(webDir, 'index.html'), 'utf8')
    .replace('<!--STYLES-->', '<link rel="stylesheet" href="./styles.css" />')
    .replace('<!--SCRIPTS-->', `<script type="module" src="${from(join(webDir, 'src', 'main.tsx'))}"></script>`)
    .replace('href="/favicon.svg"', `href="${from(join(webDir, 'public', 'favicon.svg'))}"`)
    // Every language, each message compiled afresh per request (an edited catalogue shows on reload); the app
    // picks one by its cookie or the browser's languages, as with the built page (docs/translating.md).
    .replace(
      '<!--I18N-->',
      `<meta name="app" content='${JSON.stringify({ msg: 'dev' })}' /><meta name="i18n" content="${['', SOURCE_LOCALE, ...LOCALE_CODES].join(' ')}" />`,
    ),
);

const children: ReturnType<typeof Bun.spawn>[] = [];
const tailwindArgs = [join(root, 'node_modules', '.bin', 'tailwindcss'), '-i', join(webDir, 'src', 'styles.css')];
const first = Bun.spawnSync([...tailwindArgs, '-o', cssFile], { cwd: webDir, stdout: 'pipe', stderr: 'pipe' });
if (first.exitCode !== 0) {
  console.error(`[dev] Tailwind failed:\n${first.stderr.toString()}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}
// `always`: keep watching although stdin is not a terminal.
children.push(
  Bun.spawn([...tailwindArgs, '-o', cssFile, '--watch=always'], {
    cwd: webDir,
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'inherit',
  }),
);
const api = Bun.spawn([process.execPath, '--watch', join(root, 'src', 'main.ts')], {
  cwd: root,
  env: { ...process.env, PORT: String(apiPort), PUBLIC_URL: process.env.PUBLIC_URL ?? publicUrl },
  stdout: 'inherit',
  stderr: 'inherit',
});
children.push(api);

/** /api and /media go to the API server as they came, Host included; a restarting API answers in words. */
async function toApi(request: Request): Promise<Response> {
  const url = new URL(request.url);
  try {
    return await fetch(`${apiBase}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      decompress: false,
    });
  } catch {
    return Response.json(apiUnavailableBody(request), { status: 503, headers: { 'Retry-After': '1' } });
  }
}

// Files of web/public (the avatar placeholder...), at the root as in the build.
const publicDir = join(webDir, 'public');
const publicRoutes = Object.fromEntries(
  (existsSync(publicDir) ? readdirSync(publicDir) : []).map((name) => [
    `/${name}`,
    () => new Response(Bun.file(join(publicDir, name))),
  ]),
);

const page = (await import(join(work, 'index.html'))).default;
/** `/assets/msg-<locale>-<part>-dev.js`: the whole catalogue of that language (the build splits it; dev need not).
 * Nothing else is under /assets in dev (Bun serves the bundle under /_bun). */
const devMessages = (request: Request) => {
  const name = new URL(request.url).pathname.slice('/assets/msg-'.length);
  const locale = LOCALE_CODES.find(
    (code) => name.startsWith(`${code}-`) && /^(first|all)-dev\.js$/.test(name.slice(code.length + 1)),
  );
  if (!locale) return new Response('Not found', { status: 404 });
  return new Response(`export default ${JSON.stringify(compileCatalogue(locale))};`, {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' },
  });
};
const server = Bun.serve({
  port,
  hostname: process.env.DEV_HOST ?? '0.0.0.0',
  // Uploads pass through: the API caps them itself.
  maxRequestBodySize: Number.MAX_SAFE_INTEGER,
  idleTimeout: 0,
  development: { hmr: true, console: true },
  routes: {
    ...publicRoutes,
    '/assets/*': devMessages,
    '/api/*': toApi,
    '/media/*': toApi,
    '/*': page,
  },
});
console.log(`[dev] web app with hot reload at ${publicUrl} (API at ${apiBase}, restarting on change)`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  await Promise.race([Promise.all(children.map((child) => child.exited)), Bun.sleep(3000)]);
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  server.stop(true);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('SIGHUP', stop);
// The API exiting for good (not a --watch restart, which keeps the process) ends the loop with its code.
api.exited.then((code) => {
  if (stopping) return;
  console.error(`[dev] the API server exited (${code}); stopping.`);
  void stop();
});
