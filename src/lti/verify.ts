import { lt } from 'drizzle-orm';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { deploymentIdsOf } from '../contract/lti';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/dialect';
import { type LtiPlatform, ltiNonces } from '../db/schema';
import { CLAIM } from './claims';

/** Why a launch was refused: each has its page (src/lti/pages.ts) and its log line. */
export type LaunchProblem =
  | 'no_state'
  | 'bad_state'
  | 'no_cookie'
  | 'unknown_platform'
  | 'bad_token'
  | 'bad_signature'
  | 'wrong_audience'
  | 'expired'
  | 'bad_nonce'
  | 'replayed_nonce'
  | 'unknown_deployment'
  | 'bad_message'
  | 'role_refused'
  | 'not_set_up'
  | 'account_refused'
  | 'other_teacher';

export class LaunchRefused extends Error {
  constructor(
    readonly problem: LaunchProblem,
    readonly detail: string,
  ) {
    super(`${problem}: ${detail}`);
  }
}

/** How long a used nonce is kept: longer than any id_token we accept lives. */
const NONCE_KEPT_MS = 2 * 60 * 60 * 1000;
/** Clock difference we forgive between the LMS and us. */
const CLOCK_TOLERANCE_S = 60;

// One key set per URL, for the process: jose caches it and fetches again on a `kid` it does not know.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySetOf(url: string) {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    keySets.set(url, keySet);
  }
  return keySet;
}

/**
 * Checks an id_token as LTI 1.3 (Security Framework §5.1.3) says: signature by the platform's key set, `iss`,
 * `aud` (our client id; with several audiences, `azp` must be ours), `exp`, the `nonce` we gave in this login,
 * never used before, a registered deployment, version 1.3.0 and a message type we handle.
 */
export async function verifyIdToken(
  db: Db,
  platform: LtiPlatform,
  idToken: string,
  expectedNonce: string,
): Promise<JWTPayload & Record<string, unknown>> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySetOf(platform.jwksUrl), {
      issuer: platform.issuer,
      audience: platform.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new LaunchRefused('expired', 'exp passed');
    if (error instanceof errors.JWTClaimValidationFailed) {
      const problem = error.claim === 'aud' ? 'wrong_audience' : 'bad_token';
      throw new LaunchRefused(problem, `claim ${error.claim}: ${error.reason}`);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
      throw new LaunchRefused('bad_signature', error.code);
    }
    throw new LaunchRefused('bad_token', error instanceof Error ? error.message : 'unreadable');
  }
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  if (audiences.length > 1 && payload.azp !== platform.clientId) throw new LaunchRefused('wrong_audience', 'azp');
  if (payload.azp !== undefined && payload.azp !== platform.clientId) throw new LaunchRefused('wrong_audience', 'azp');
  if (payload.nonce !== expectedNonce) throw new LaunchRefused('bad_nonce', 'nonce differs from the login');
  if (!deploymentIdsOf(platform).includes(String(payload[CLAIM.deploymentId]))) {
    throw new LaunchRefused('unknown_deployment', `deployment ${String(payload[CLAIM.deploymentId])}`);
  }
  if (payload[CLAIM.version] !== '1.3.0') throw new LaunchRefused('bad_message', 'version');
  const type = payload[CLAIM.messageType];
  if (type !== 'LtiResourceLinkRequest' && type !== 'LtiDeepLinkingRequest') {
    throw new LaunchRefused('bad_message', `message type ${String(type)}`);
  }
  await spendNonce(db, platform.id, expectedNonce);
  return payload as JWTPayload & Record<string, unknown>;
}

/** Records the nonce as used; a second use is a replay. Expired ones are dropped on the way. */
async function spendNonce(db: Db, platformId: string, nonce: string, now = Date.now()) {
  await db.delete(ltiNonces).where(lt(ltiNonces.expiresAt, now));
  try {
    const inserted = await db
      .insert(ltiNonces)
      .values({ nonce, platformId, expiresAt: now + NONCE_KEPT_MS })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) throw new LaunchRefused('replayed_nonce', 'nonce already used');
  } catch (error) {
    if (isUniqueViolation(error)) throw new LaunchRefused('replayed_nonce', 'nonce already used');
    throw error;
  }
}
