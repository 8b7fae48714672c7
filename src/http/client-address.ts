import type { Context } from 'hono';
import { getConnInfo } from 'hono/bun';

/**
 * The address a request came from, for per-client limits. Behind a reverse proxy (TRUST_PROXY=true) it is
 * the last address in X-Forwarded-For, the one the proxy itself saw; otherwise the socket's peer, so a client
 * cannot pick its own key by sending the header.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in a test has no socket
    return 'unknown';
  }
}
