import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * The `state` of a login: a short JWT (HS256 with the server's secret) that carries its own nonce, so the server
 * keeps nothing between login and launch. It proves we started this login; what proves the launch comes back to
 * the browser that started it is the `lti_state_<sid>` cookie, or without cookies the platform's storage
 * (docs/lti.md, "Cookies and Platform Storage").
 */
export type LoginState = {
  /** Our platform row. */
  platformId: string;
  nonce: string;
  /** The key of this login in the cookie's name and in Platform Storage. */
  sid: string;
  /** The platform frame that keeps the state when cookies cannot (`lti_storage_target`), if the platform has one. */
  storageTarget?: string;
};

const AUDIENCE = 'lti-state';
/** A login must come back within this time. */
export const STATE_LIFETIME_S = 10 * 60;

const random = () => randomBytes(18).toString('base64url');

export async function newLoginState(secret: Uint8Array, platformId: string, storageTarget: string | undefined) {
  const state: LoginState = { platformId, nonce: random(), sid: random(), storageTarget };
  const token = await new SignJWT({ pid: platformId, nonce: state.nonce, sid: state.sid, st: storageTarget })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${STATE_LIFETIME_S}s`)
    .sign(secret);
  return { state, token };
}

/** The login a `state` names, or undefined when we did not make it or it is too old. */
export async function readLoginState(secret: Uint8Array, token: string): Promise<LoginState | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { audience: AUDIENCE, algorithms: ['HS256'] });
    if (typeof payload.pid !== 'string' || typeof payload.nonce !== 'string' || typeof payload.sid !== 'string') {
      return undefined;
    }
    const storageTarget = typeof payload.st === 'string' ? payload.st : undefined;
    return { platformId: payload.pid, nonce: payload.nonce, sid: payload.sid, storageTarget };
  } catch {
    return undefined;
  }
}

export const stateCookieName = (sid: string) => `lti_state_${sid}`;
