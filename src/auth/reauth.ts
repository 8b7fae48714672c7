import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import { ApiError } from '../errors';
import { reachedOverHttps } from './sessions';

/**
 * A fresh confirmation with the school account, for an account that has no password to type (docs/accounts.md,
 * "Deleting an account made by school sign-in"). The school sign-in callback with `intent=confirm` checks that the
 * identity that came back is linked to the signed-in user, then sets the `reauth` cookie: a JWT signed with
 * JWT_SECRET over { sub: userId, sid: sessionId, purpose: 'reauth' }, good for 5 minutes, HttpOnly, SameSite=Strict,
 * path /api/users (the routes that read it: deleting the account, choosing a password). No table holds it.
 */
export const REAUTH_COOKIE = 'reauth';
const REAUTH_PATH = '/api/users';
export const REAUTH_LIFETIME_SECONDS = 5 * 60;
const PURPOSE = 'reauth';

export type ReauthClaims = { userId: string; sessionId: string };

/** A proof for this user and session, issued at `now` (ms; a parameter for the tests' old proofs). */
export function signReauth(secret: Uint8Array, claims: ReauthClaims, now = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ sid: claims.sessionId, purpose: PURPOSE })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + REAUTH_LIFETIME_SECONDS)
    .sign(secret);
}

/** True when `token` is a live proof for exactly this user and session (a session token is not one). */
export async function isReauthFor(
  secret: Uint8Array,
  token: string | undefined,
  claims: ReauthClaims,
  now = Date.now(),
): Promise<boolean> {
  if (!token || token.length > 1000) return false;
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      currentDate: new Date(now),
      // No leeway: the proof lasts five minutes, not a second more.
      clockTolerance: 0,
      requiredClaims: ['iat', 'exp', 'sub'],
    });
    if (payload.purpose !== PURPOSE || payload.sub !== claims.userId || payload.sid !== claims.sessionId) return false;
    // A proof from the future (a clock moved back) or with a longer life than ours is not one we made.
    const iat = payload.iat as number;
    return iat * 1000 <= now + 1000 && (payload.exp as number) - iat <= REAUTH_LIFETIME_SECONDS;
  } catch {
    return false;
  }
}

export async function setReauthCookie(c: Context, secret: Uint8Array, claims: ReauthClaims) {
  setCookie(c, REAUTH_COOKIE, await signReauth(secret, claims), {
    path: REAUTH_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: reachedOverHttps(c),
    maxAge: REAUTH_LIFETIME_SECONDS,
  });
}

export function clearReauthCookie(c: Context) {
  deleteCookie(c, REAUTH_COOKIE, { path: REAUTH_PATH, httpOnly: true, sameSite: 'Strict' });
}

/**
 * For an account without a password: refuses (403 `reauth_required`, nothing changed) unless the request carries
 * a live proof for this user and this session.
 */
export async function requireReauth(c: Context, secret: Uint8Array, claims: ReauthClaims) {
  if (await isReauthFor(secret, getCookie(c, REAUTH_COOKIE), claims)) return;
  throw new ApiError(403, 'reauth_required', 'errors.reauthRequired');
}
