/** Builds the React app into dist/web: hashed JS chunks, hashed Tailwind CSS, index.html and public files. */
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';

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

const cssTemp = join(temp, 'styles.css');
const tailwind = Bun.spawnSync(
  [
    join(root, 'node_modules', '.bin', 'tailwindcss'),
    '-i',
    join(root, 'web', 'src', 'styles.css'),
    '-o',
    cssTemp,
    '--minify',
  ],
  { cwd: join(root, 'web'), stdout: 'pipe', stderr: 'pipe' },
);
if (tailwind.exitCode !== 0) {
  console.error(tailwind.stderr.toString());
  fail();
}
const css = readFileSync(cssTemp);
const cssName = `styles-${Bun.hash(css).toString(36)}.css`;
writeFileSync(join(temp, 'assets', cssName), css);
rmSync(cssTemp);

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

// The service worker at /sw.js (docs/offline.md): it precaches index.html, every script and style and the manifest;
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
const bytes = scripts.reduce((sum, name) => sum + Bun.file(join(out, 'assets', name)).size, 0) + css.length;
console.log(`Built web app into dist/web (${scripts.length + 1} assets, ${(bytes / 1024).toFixed(0)} KiB)`);
