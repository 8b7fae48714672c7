import { jwtVerify, SignJWT } from 'jose';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export type TokenClaims = { userId: string; tokenVersion: number };

export async function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({ tv: claims.tokenVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(secret);
}

/** Returns the claims of a valid token, or undefined for anything else (bad signature, expired, other algorithm). */
export async function readToken(secret: Uint8Array, token: string): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return undefined;
    return { userId: payload.sub, tokenVersion: payload.tv };
  } catch {
    return undefined;
  }
}
