import { eq, sql } from 'drizzle-orm';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { users } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, forbidden, unauthorized } from '../errors';
import { readToken } from './tokens';

/** The bearer header, or the `token` cookie when there is no header (the spec's client omits it on two calls). */
export function tokenFrom(authorization: string | undefined, cookieToken: string | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? cookieToken;
}

export function requireUser(deps: Pick<AppDeps, 'db' | 'config'>) {
  // Every authenticated request runs this lookup: prepared once.
  const userById = deps.db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare();
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = tokenFrom(c.req.header('authorization'), getCookie(c, 'token'));
    if (!token) throw unauthorized();
    const claims = await readToken(deps.config.jwtSecret, token);
    if (!claims) throw unauthorized('Your session has expired. Please log in again.');
    const user = await userById.get({ id: claims.userId });
    if (!user || user.tokenVersion !== claims.tokenVersion) {
      throw unauthorized('Your session has expired. Please log in again.');
    }
    if (!user.emailVerifiedAt) {
      throw new ApiError(403, 'email_not_verified', 'Please verify your email', { requiresVerification: true });
    }
    c.set('user', user);
    await next();
  });
}

export function requireRole(role: 'teacher' | 'student') {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.get('user').role !== role) throw forbidden(`Only ${role}s can do that.`);
    await next();
  });
}
