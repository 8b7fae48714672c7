import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Context } from 'hono';
import { getEmbedded } from '../lib/embedded';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** URL path → file on disk, listed once at start, so a request can only ever name a file we built. */
export function listWebFiles(webDir: string): Map<string, string> {
  const embedded = getEmbedded();
  if (embedded) return embedded.webFiles;
  const files = new Map<string, string>();
  if (!existsSync(webDir)) return files;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(`/${relative(webDir, path).split(sep).join('/')}`, path);
    }
  };
  walk(webDir);
  return files;
}

/** Serves the built web app: hashed assets cached for a year, everything else falls back to index.html. */
export function createWebHandler(webDir: string) {
  const files = listWebFiles(webDir);
  const serve = (c: Context, urlPath: string, cacheControl: string) => {
    const path = files.get(urlPath);
    if (!path) return undefined;
    const extension = urlPath.slice(urlPath.lastIndexOf('.'));
    const headers: Record<string, string> = {
      'Content-Type': contentTypes[extension] ?? 'application/octet-stream',
      'Cache-Control': cacheControl,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    // The build made brotli and gzip copies of text files: send the best one the browser takes.
    const accepted = c.req.header('accept-encoding') ?? '';
    const encoding = (['br', 'gzip'] as const).find(
      (name) => files.has(`${urlPath}.${name === 'br' ? 'br' : 'gz'}`) && new RegExp(`\\b${name}\\b`).test(accepted),
    );
    if (files.has(`${urlPath}.br`) || files.has(`${urlPath}.gz`)) headers.Vary = 'Accept-Encoding';
    if (encoding) {
      headers['Content-Encoding'] = encoding;
      const compressed = files.get(`${urlPath}.${encoding === 'br' ? 'br' : 'gz'}`) as string;
      return c.body(Bun.file(compressed).stream(), 200, headers);
    }
    return c.body(Bun.file(path).stream(), 200, headers);
  };
  /** `page` serves that built file instead of the one the URL names (used for /api/docs). */
  return (c: Context, page?: string) => {
    if (page) return serve(c, page, 'no-cache') ?? c.text('Not found', 404);
    const urlPath = new URL(c.req.url).pathname;
    if (urlPath.startsWith('/assets/')) {
      return serve(c, urlPath, 'public, max-age=31536000, immutable') ?? c.text('Not found', 404);
    }
    if (urlPath !== '/index.html') {
      // The service worker is looked at on every visit: a new build's worker (and its shell) must reach the browser.
      const asset = serve(c, urlPath, urlPath === '/sw.js' ? 'no-cache' : 'public, max-age=3600');
      if (asset) return asset;
    }
    return (
      serve(c, '/index.html', 'no-cache') ??
      c.text('The web app has not been built yet. Run `bun run build`, then reload.', 503)
    );
  };
}
