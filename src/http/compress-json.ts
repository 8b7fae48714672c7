import { createMiddleware } from 'hono/factory';

/** Smaller answers are sent as they are: gzip's own header and the extra work cost more than they save. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * JSON answers of 1 KB or more, gzipped (level 1) when the client takes gzip. Hono's `compress()` decides by the
 * Content-Length header, which `c.json()` does not set, so it streamed every answer through a CompressionStream,
 * a 70-byte one too: about 48 µs more per request in the app (the current user: 94 µs instead of 46). The body is
 * in memory already, so it is compressed in one call: 8 µs for the 13 KB of a 50-lecture list (level 6: 27 µs for
 * 27% fewer bytes of an already small answer).
 */
export const compressJson = createMiddleware(async (c, next) => {
  await next();
  const res = c.res;
  if (c.req.method === 'HEAD' || !res.body || !res.headers.get('content-type')?.startsWith('application/json')) return;
  if (res.headers.has('content-encoding')) return;
  res.headers.append('Vary', 'Accept-Encoding');
  if (!/\bgzip\b/i.test(c.req.header('accept-encoding') ?? '')) return;
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.byteLength < COMPRESS_MIN_BYTES) {
    c.res = new Response(body, res);
    return;
  }
  const compressed = Bun.gzipSync(body, { level: 1 });
  c.res = new Response(compressed, res);
  c.res.headers.set('Content-Encoding', 'gzip');
  c.res.headers.set('Content-Length', String(compressed.byteLength));
});
