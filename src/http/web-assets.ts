import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { directionOf, isLocale, type Locale, matchLocale, parseAcceptLanguage } from '../contract/locales';
import { type SchoolLocales, translate } from '../i18n/translate';
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

/** The cookie holding the language on screen (web/src/lib/i18n.ts sets it), read when sending the page. */
export const LOCALE_COOKIE = 'locale';

type Localized = { body: Buffer; br: Buffer; gzip: Buffer };
const compressed = (body: Buffer): Localized => ({
  body,
  br: brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: gzipSync(body, { level: 9 }),
});

/**
 * The documents that speak, in each offered language, made once at start. index.html: `<html lang dir>`, the
 * school's languages for the menus, and a preload of that language's first messages (scripts/build-web.ts leaves
 * %LANG%, %DIR%, %I18N%). The web app manifest: its description, `lang` and `dir` (what an installed app shows).
 */
function documentsByLocale(files: Map<string, string>, school: SchoolLocales) {
  const documents = new Map<string, Map<Locale, Localized>>();
  const page = files.get('/index.html');
  const manifest = files.get('/manifest.webmanifest');
  for (const locale of school.locales) {
    const dir = directionOf(locale);
    if (page) {
      const i18n = [locale, school.defaultLocale, ...school.locales].join(' ');
      const html = readFileSync(page, 'utf8').replaceAll('%LANG%', locale).replaceAll('%DIR%', dir);
      const byLocale = documents.get('/index.html') ?? new Map<Locale, Localized>();
      byLocale.set(locale, compressed(Buffer.from(html.replaceAll('%I18N%', i18n))));
      documents.set('/index.html', byLocale);
    }
    if (manifest) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
      const own = { ...json, lang: locale, dir, description: translate(locale, 'app.description') };
      const byLocale = documents.get('/manifest.webmanifest') ?? new Map<Locale, Localized>();
      byLocale.set(locale, compressed(Buffer.from(JSON.stringify(own))));
      documents.set('/manifest.webmanifest', byLocale);
    }
  }
  return documents;
}

/** Serves the built web app: hashed assets cached for a year, everything else falls back to index.html. */
export function createWebHandler(webDir: string, school: SchoolLocales) {
  const files = listWebFiles(webDir);
  const documents = documentsByLocale(files, school);
  /** A document in the language on screen (the cookie), else the browser's, else the school's. */
  const sendLocalized = (c: Context, urlPath: '/index.html' | '/manifest.webmanifest') => {
    const chosen = getCookie(c, LOCALE_COOKIE);
    const locale =
      (isLocale(chosen) && school.locales.includes(chosen) ? chosen : undefined) ??
      matchLocale(parseAcceptLanguage(c.req.header('accept-language')), school.locales) ??
      school.defaultLocale;
    const document = documents.get(urlPath)?.get(locale);
    if (!document) return undefined;
    const accepted = c.req.header('accept-encoding') ?? '';
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    const headers: Record<string, string> = {
      'Content-Type': contentTypes[urlPath.slice(urlPath.lastIndexOf('.'))]!,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Content-Language': locale,
      Vary: 'Accept-Encoding, Accept-Language, Cookie',
    };
    if (encoding) headers['Content-Encoding'] = encoding;
    return c.body(new Uint8Array(encoding ? document[encoding] : document.body), 200, headers);
  };
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
    if (urlPath === '/manifest.webmanifest') return sendLocalized(c, urlPath) ?? c.text('Not found', 404);
    if (urlPath !== '/index.html') {
      // The service worker is looked at on every visit: a new build's worker (and its shell) must reach the browser.
      const asset = serve(c, urlPath, urlPath === '/sw.js' ? 'no-cache' : 'public, max-age=3600');
      if (asset) return asset;
    }
    return (
      sendLocalized(c, '/index.html') ??
      c.text('The web app has not been built yet. Run `bun run build`, then reload.', 503)
    );
  };
}
