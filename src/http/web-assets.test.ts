import { afterAll, beforeAll, expect, test } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Harness, startHarness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h?.close());

const get = (path: string, encoding: string) =>
  fetch(`${h.baseUrl}${path}`, { headers: { 'accept-encoding': encoding } });

test('hashed assets are sent pre-compressed by Accept-Encoding, with Vary, and decompress to the same bytes', async () => {
  const html = await (await get('/login', 'identity')).text();
  const script = /src="(\/assets\/main-[^"]+\.js)"/.exec(html)?.[1] as string;
  expect(script).toBeString();
  const plain = await get(script, 'identity');
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(plain.headers.get('vary')).toBe('Accept-Encoding');
  const original = new Uint8Array(await plain.arrayBuffer());

  // fetch() would decompress by itself: read the raw bytes with decompress off.
  const raw = async (encoding: string) => {
    const answer = await fetch(`${h.baseUrl}${script}`, {
      headers: { 'accept-encoding': encoding },
      decompress: false,
    });
    return { encoding: answer.headers.get('content-encoding'), bytes: new Uint8Array(await answer.arrayBuffer()) };
  };
  const br = await raw('gzip, deflate, br');
  expect(br.encoding).toBe('br');
  expect(br.bytes.length).toBeLessThan(original.length / 2);
  expect(new Uint8Array(brotliDecompressSync(br.bytes))).toEqual(original);
  const gz = await raw('gzip');
  expect(gz.encoding).toBe('gzip');
  expect(new Uint8Array(gunzipSync(gz.bytes))).toEqual(original);
  expect((await get('/login', 'br')).headers.get('content-encoding')).toBe('br');
});

test('every answer carries its own X-Request-Id, hashed assets included, and the log line has the same id', async () => {
  const html = await (await get('/login', 'identity')).text();
  const script = /src="(\/assets\/main-[^"]+\.js)"/.exec(html)?.[1] as string;
  const style = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  expect(script).toBeString();
  const paths = [
    script,
    ...(style ? [style] : []),
    '/assets/no-such-file.js',
    '/login',
    '/api/health',
    '/api/no-such-route',
    '/media/nothing',
  ];
  const seen = new Set<string>();
  for (const path of paths) {
    for (const encoding of ['identity', 'br']) {
      const answer = await get(path, encoding);
      await answer.arrayBuffer();
      const id = answer.headers.get('x-request-id');
      expect({ path, encoding, id: typeof id }).toEqual({ path, encoding, id: 'string' });
      expect(seen.has(id as string)).toBe(false);
      seen.add(id as string);
      const line = h.logLines.find((entry) => entry.reqId === id && entry.msg === 'request');
      expect(line).toMatchObject({ method: 'GET', path, status: answer.status });
    }
  }
});

test('the service worker is at /sw.js, never kept by the browser, and precaches the page and every built script', async () => {
  const answer = await get('/sw.js', 'identity');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-cache');
  expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  const source = await answer.text();
  const html = await (await get('/login', 'identity')).text();
  const script = /src="(\/assets\/main-[^"]+\.js)"/.exec(html)?.[1] as string;
  expect(source).toContain('"/index.html"');
  expect(source).toContain(`"${script}"`);
  expect(source).toMatch(/classroom-shell-/);
  const manifest = await get('/manifest.webmanifest', 'identity');
  expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
  expect(await manifest.json()).toMatchObject({ display: 'standalone', start_url: '/classroom' });
});

test('the page and the app manifest come in the language on screen: the cookie, else the browser, else the school', async () => {
  const page = async (headers: Record<string, string>) => {
    const answer = await fetch(`${h.baseUrl}/classroom`, { headers });
    return {
      html: await answer.text(),
      language: answer.headers.get('content-language'),
      vary: answer.headers.get('vary'),
    };
  };
  const arabic = await page({ 'accept-language': 'ar-EG,ar;q=0.9' });
  expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
  // That language's first messages are preloaded, and no other language's.
  expect(arabic.html).toMatch(/href="\/assets\/msg-ar-first-[a-z0-9]+\.js"/);
  expect(arabic.html).not.toMatch(/msg-(en|es|fr|hi|pt-BR)-/);
  expect(arabic.language).toBe('ar');
  expect(arabic.vary).toContain('Cookie');
  // The cookie (a choice made in the app) wins over the browser's languages.
  expect((await page({ 'accept-language': 'ar', cookie: 'locale=es' })).html).toContain('<html lang="es" dir="ltr">');
  // Nothing the school offers, or nonsense: the school's language, never an error.
  for (const header of ['xx-YY', 'a'.repeat(10_000), ';;;q=,', '*']) {
    expect((await page({ 'accept-language': header })).html).toContain('<html lang="en" dir="ltr">');
  }
  expect((await page({ cookie: 'locale=../../etc' })).html).toContain('<html lang="en" dir="ltr">');

  const manifest = await fetch(`${h.baseUrl}/manifest.webmanifest`, { headers: { 'accept-language': 'ar' } });
  expect(manifest.headers.get('content-type')).toContain('application/manifest+json');
  const json = (await manifest.json()) as { lang: string; dir: string; description: string; name: string };
  expect([json.lang, json.dir, json.name]).toEqual(['ar', 'rtl', 'Classroom']);
  expect(json.description).toBe('صفوفك ودروسك المصوّرة، وما حفظته منها يعمل دون اتصال.');
});
