import { jwtVerify, SignJWT } from 'jose';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** A token names its user and the session (device) it belongs to; the session row decides whether it still works. */
export type TokenClaims = { userId: string; sessionId: string };

export async function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(secret);
}

/**
 * Tokens whose signature was checked, per secret, until they expire: checking an HS256 signature with jose costs
 * about 100 µs, most of a light request, and a student sends the same token hundreds of times an hour. Whether
 * the token still works is the session row's business (looked up on every request), so logging out still ends
 * it at once. Bounded: the oldest entry goes first.
 */
const verified = new WeakMap<Uint8Array, Map<string, { claims: TokenClaims; expiresAt: number }>>();
const VERIFIED_MAX = 10_000;

/** Returns the claims of a valid token, or undefined for anything else (bad signature, expired, other algorithm). */
export async function readToken(secret: Uint8Array, token: string, now = Date.now()): Promise<TokenClaims | undefined> {
  let cache = verified.get(secret);
  if (!cache) {
    cache = new Map();
    verified.set(secret, cache);
  }
  const known = cache.get(token);
  if (known) {
    if (known.expiresAt > now) return known.claims;
    cache.delete(token);
  }
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: new Date(now) });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number')
      return undefined;
    const claims = { userId: payload.sub, sessionId: payload.sid };
    if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(token, { claims, expiresAt: payload.exp * 1000 });
    return claims;
  } catch {
    return undefined;
  }
}
