import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden, unauthorized } from '../errors';
import { sessionUser } from './sessions';
import { accountDisabled, assertApprovedTeacher } from './standing';
import { readToken } from './tokens';

/** The bearer header, or the `token` cookie when there is no header (the spec's client omits it on two calls). */
export function tokenFrom(authorization: string | undefined, cookieToken: string | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? cookieToken;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write authenticated by the cookie alone must come from our own pages: a browser sends the cookie with a
 * form another site posts, but then the Origin (or Sec-Fetch-Site) names that other site.
 */
function crossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  if (origin === 'null') return true;
  try {
    // A reverse proxy must pass the Host header on (Caddy does; nginx: proxy_set_header Host $host).
    return new URL(origin).host !== (request.headers.get('host') ?? new URL(request.url).host);
  } catch {
    return true;
  }
}

/** The signed-in user of a live session, or 401; sets `user` and `sessionId`. */
export function requireUser(deps: Pick<AppDeps, 'db' | 'config'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const bearer = c.req.header('authorization');
    const token = tokenFrom(bearer, getCookie(c, 'token'));
    if (!token) throw unauthorized();
    if (!bearer && crossSiteWrite(c.req.raw)) throw forbidden('errors.crossSite');
    const claims = await readToken(deps.config.jwtSecret, token);
    const row = claims
      ? await sessionUser(deps.db, { sessionId: claims.sessionId, userId: claims.userId, now: Date.now() })
      : undefined;
    if (!claims || !row) throw unauthorized('errors.sessionExpired');
    if (row.user.disabledAt) throw accountDisabled();
    c.set('user', row.user);
    c.set('sessionId', claims.sessionId);
    await next();
  });
}

/** Creating classes and uploading: a teacher the administrator approved. */
export const requireApprovedTeacher = createMiddleware<AppEnv>(async (c, next) => {
  assertApprovedTeacher(c.get('user'));
  await next();
});

/** Everything under /api/admin. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get('user').isAdmin) throw forbidden('errors.onlyAdmin');
  await next();
});
