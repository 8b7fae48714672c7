/** Builds the React app into dist/web: hashed JS chunks, hashed Tailwind CSS, index.html and public files. */
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { LOCALE_CODES, SOURCE_LOCALE } from '../src/contract/locales';
import { compileCatalogue, readCatalogue } from '../src/i18n/catalogue';

const root = join(import.meta.dir, '..');
const out = join(root, 'dist', 'web');
// A folder of this build's own: two builds at once (tests and a bench side by side) must not write into one another.
const temp = join(root, 'dist', `web.tmp-${process.pid}`);
rmSync(temp, { recursive: true, force: true });
mkdirSync(join(temp, 'assets'), { recursive: true });
/** A failed build leaves dist/web as it was, and no folder of its own behind. */
const fail = (): never => {
  rmSync(temp, { recursive: true, force: true });
  process.exit(1);
};

// Bun.build throws on a syntax error (and answers success: false on other failures).
const result = await Bun.build({
  entrypoints: [join(root, 'web', 'src', 'main.tsx')],
  outdir: join(temp, 'assets'),
  splitting: true,
  minify: true,
  sourcemap: 'none',
  target: 'browser',
  naming: { entry: '[name]-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: '[name]-[hash].[ext]' },
  publicPath: '/assets/',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
}).catch((error: unknown) => {
  console.error(error);
  return fail();
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  fail();
}
const entry = result.outputs.find((output) => output.kind === 'entry-point');
if (!entry) throw new Error('No entry chunk was built');
const firstName = entry.path.slice(entry.path.lastIndexOf('/') + 1);
/** The chunks the entry imports statically, all the way down (the code every page shares with the first one). */
const entryImports: string[] = [];
{
  const outputs = result.metafile?.outputs ?? {};
  const pending = [`./${firstName}`];
  for (let name = pending.pop(); name; name = pending.pop()) {
    for (const { path, kind } of outputs[name]?.imports ?? []) {
      if (kind !== 'import-statement' || entryImports.includes(path)) continue;
      entryImports.push(path);
      pending.push(path);
    }
  }
}
const assetsDir = join(temp, 'assets');
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
/**
 * The entry and the chunks it imports become one file: the first page makes one request (whose headers bench:web
 * counts) and brotli compresses the whole in one window, about 1.3 KB less than apart. Other chunks then import the
 * shared code from that file. Left apart only if two of them export one name (never seen: Bun names them apart).
 */
const firstFiles = [firstName, ...entryImports.map(baseName)];
const exportNames = firstFiles.flatMap((name) => result.metafile?.outputs[`./${name}`]?.exports ?? []);
let entryName = firstName;
if (entryImports.length > 0 && new Set(exportNames).size === exportNames.length) {
  const wrapper = join(temp, 'first-page.js');
  writeFileSync(wrapper, firstFiles.map((name) => `export * from './assets/${name}';\n`).join(''));
  const merged = await Bun.build({
    entrypoints: [wrapper],
    minify: true,
    target: 'browser',
    plugins: [
      {
        name: 'first-page',
        setup(build) {
          // The merged files resolve to this build's own; every other chunk stays an import of its URL.
          build.onResolve({ filter: /^\/assets\// }, ({ path }) =>
            firstFiles.includes(baseName(path)) ? { path: join(assetsDir, baseName(path)) } : { path, external: true },
          );
        },
      },
    ],
  }).catch((error: unknown) => {
    console.error(error);
    return fail();
  });
  if (!merged.success || !merged.outputs[0]) {
    for (const log of merged.logs) console.error(log);
    fail();
  }
  const text = await merged.outputs[0]!.text();
  entryName = `main-${Bun.hash(text).toString(36)}.js`;
  /*
   * Every other chunk is renamed after the new entry: their content now names it, and a browser that cached one
   * (immutable) must never import an entry of another build.
   */
  const names = new Map(firstFiles.map((name) => [name, entryName]));
  for (const name of readdirSync(assetsDir)) {
    if (name.endsWith('.js') && !names.has(name))
      names.set(name, `chunk-${Bun.hash(name + entryName).toString(36)}.js`);
  }
  const renamed = (code: string) =>
    code.replace(
      /\/assets\/((?:main|chunk)-[a-z0-9]+\.js)/g,
      (_url, name: string) => `/assets/${names.get(name) ?? name}`,
    );
  for (const [from, to] of names) {
    const code = from === firstName ? text : readFileSync(join(assetsDir, from), 'utf8');
    rmSync(join(assetsDir, from));
    if (!firstFiles.includes(from) || from === firstName) writeFileSync(join(assetsDir, to), renamed(code));
  }
  rmSync(wrapper);
  entryImports.length = 0;
}

/*
 * Each language's messages as two chunks of their own (docs/translating.md): `first`, the keys the first chunk's
 * files name (the sign-in page's), preloaded by the page the server sends; `all`, every key the web app names,
 * which signed-in pages load. A page carries its own language only. Keys are found as string literals in the
 * files each chunk was built from (keys are never built at run time).
 */
const english = readCatalogue(SOURCE_LOCALE);
const keysIn = (files: string[]) => {
  const keys = new Set<string>();
  for (const file of files) {
    if (!/\.(tsx?|jsx?)$/.test(file) || file.includes('node_modules')) continue;
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(
      /['"`]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)['"`]/g,
    )) {
      if (english[match[1]!] !== undefined) keys.add(match[1]!);
    }
  }
  return [...keys].sort();
};
const outputsMeta = result.metafile?.outputs ?? {};
const inputsOf = (names: string[]) => names.flatMap((name) => Object.keys(outputsMeta[`./${name}`]?.inputs ?? {}));
const firstKeys = keysIn(inputsOf(firstFiles));
const allKeys = keysIn(Object.values(outputsMeta).flatMap((output) => Object.keys(output.inputs)));
const messagesVersion = Bun.hash(
  JSON.stringify([firstKeys, allKeys, ...LOCALE_CODES.map((code) => readCatalogue(code))]),
).toString(36);
for (const locale of LOCALE_CODES) {
  for (const [part, keys] of [
    ['first', firstKeys],
    ['all', allKeys],
  ] as const) {
    writeFileSync(
      join(assetsDir, `msg-${locale}-${part}-${messagesVersion}.js`),
      `export default ${JSON.stringify(compileCatalogue(locale, keys))};\n`,
    );
  }
}

/**
 * Two style sheets: `first`, made only from the files of the first chunk (the sign-in pages: about 4 KB instead
 * of 9 KB compressed, bench:web), linked by the page; `styles`, the whole app's, which every other page loads
 * before it shows (web/src/lib/lazy-page.tsx).
 */
const tailwindCss = (name: string, sources: string[] | undefined) => {
  const input = join(root, 'web', 'src', `.${name}-${process.pid}.css`);
  const output = join(temp, `${name}.css`);
  const styles = readFileSync(join(root, 'web', 'src', 'styles.css'), 'utf8');
  writeFileSync(
    input,
    sources
      ? styles
          .replace('@import "tailwindcss";', '@import "tailwindcss" source(none);')
          .replace(/^@source .*$/gm, '')
          .concat(sources.map((file) => `@source "${join(root, file)}";`).join('\n'))
      : styles,
  );
  const tailwind = Bun.spawnSync(
    [join(root, 'node_modules', '.bin', 'tailwindcss'), '-i', input, '-o', output, '--minify'],
    { cwd: join(root, 'web'), stdout: 'pipe', stderr: 'pipe' },
  );
  rmSync(input, { force: true });
  if (tailwind.exitCode !== 0) {
    console.error(tailwind.stderr.toString());
    fail();
  }
  const css = readFileSync(output);
  const cssName = `${name}-${Bun.hash(css).toString(36)}.css`;
  writeFileSync(join(temp, 'assets', cssName), css);
  rmSync(output);
  return { css, cssName };
};
const firstSources = inputsOf(firstFiles).filter((file) => file.startsWith('web/src/'));
const { css: firstCss, cssName } = tailwindCss('first', firstSources);
const { css, cssName: appCssName } = tailwindCss('styles', undefined);

cpSync(join(root, 'web', 'public'), temp, { recursive: true });
// The API reference at /api/docs: Swagger UI from node_modules and our page around it, served like any asset.
const apiDocs = join(temp, 'api-docs');
cpSync(join(root, 'web', 'api-docs'), apiDocs, { recursive: true });
for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
  cpSync(join(root, 'node_modules', 'swagger-ui-dist', name), join(apiDocs, name));
}
/** An SVG as a data: URL, escaping only what the URL and a double-quoted attribute need (fewer bytes than %-encoding all). */
const svgDataUrl = (svg: string) =>
  `data:image/svg+xml,${svg.trim().replaceAll('"', "'").replaceAll('%', '%25').replaceAll('#', '%23').replaceAll('<', '%3C').replaceAll('>', '%3E')}`;
const html = readFileSync(join(root, 'web', 'index.html'), 'utf8')
  .replace('<!--STYLES-->', `<link rel="stylesheet" href="/assets/${cssName}" />`)
  // What the server fills in per language (src/http/web-assets.ts): <html lang dir>, the language's first messages.
  .replace('<html lang="en">', '<html lang="%LANG%" dir="%DIR%">')
  .replace(
    '<!--I18N-->',
    `<meta name="app" content='${JSON.stringify({ css: `/assets/${appCssName}`, msg: messagesVersion })}' /><meta name="i18n" content="%I18N%" /><link rel="modulepreload" href="/assets/msg-%LANG%-first-${messagesVersion}.js" />`,
  )
  .replace(
    '<!--SCRIPTS-->',
    [`<script type="module" src="/assets/${entryName}"></script>`]
      // Only if they could not be merged into the entry: the browser fetches them with it, not after reading it.
      .concat(entryImports.map((path) => `<link rel="modulepreload" href="/assets/${baseName(path)}" />`))
      .join(''),
  )
  // The icon inside the page: one request fewer on every first visit.
  .replace(
    'href="/favicon.svg"',
    `href="${svgDataUrl(readFileSync(join(root, 'web', 'public', 'favicon.svg'), 'utf8'))}"`,
  )
  // Every first visit downloads the page: no comments, no white space between tags, no self-closing slashes (HTML
  // has none).
  .replace(/<!--[\s\S]*?-->/g, '')
  .replace(/>\s+</g, '><')
  .replaceAll(' />', '>');
writeFileSync(join(temp, 'index.html'), html);

// The service worker at /sw.js (docs/offline.md): it precaches index.html, every script and style and the manifest
// (message chunks only in the language on screen: the worker filters `/assets/msg-`);
// its version is a hash of those names and the page, so a new build's worker replaces the last one's cache.
const shellFiles = [
  ...readdirSync(join(temp, 'assets'))
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => `/assets/${name}`),
  '/manifest.webmanifest',
  '/favicon.svg',
  '/app-icon.svg',
].sort();
const serviceWorker = await Bun.build({
  entrypoints: [join(root, 'web', 'src', 'features', 'offline', 'sw', 'service-worker.ts')],
  minify: true,
  target: 'browser',
  define: {
    SHELL_FILES: JSON.stringify(shellFiles),
    SHELL_VERSION: JSON.stringify(Bun.hash(`${shellFiles.join('\n')}\n${html}`).toString(36)),
  },
});
if (!serviceWorker.success || !serviceWorker.outputs[0]) {
  for (const log of serviceWorker.logs) console.error(log);
  fail();
}
writeFileSync(join(temp, 'sw.js'), await serviceWorker.outputs[0].text());

// Pre-compressed copies (brotli at its best, gzip as the fallback), chosen per request by Accept-Encoding.
const compressible = /\.(js|css|html|svg|json|webmanifest)$/;
const compress = (dir: string) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) compress(path);
    else if (compressible.test(entry.name)) {
      const bytes = readFileSync(path);
      writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    }
  }
};
compress(temp);

// Swapped in by two renames, so a server starting meanwhile lists one whole build, never a half-copied one.
const old = join(root, 'dist', `web.old-${process.pid}`);
for (let attempt = 0; ; attempt++) {
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(out, old);
  } catch {
    // No earlier build (or another build is swapping its own in right now).
  }
  try {
    renameSync(temp, out);
    break;
  } catch (error) {
    // Another build put its folder there between the two renames: the last one in wins.
    if (attempt >= 5) throw error;
  }
}
rmSync(old, { recursive: true, force: true });
const scripts = readdirSync(join(out, 'assets')).filter((name) => name.endsWith('.js'));
const bytes =
  scripts.reduce((sum, name) => sum + Bun.file(join(out, 'assets', name)).size, 0) + css.length + firstCss.length;
console.log(`Built web app into dist/web (${scripts.length + 1} assets, ${(bytes / 1024).toFixed(0)} KiB)`);
