import { eq } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import { isLoopback } from '../contract/lti';
import type { Db } from '../db/client';
import { ltiNonces, ltiPlatforms, users } from '../db/schema';
import type { MessageKey } from '../i18n/translate';
import { newId } from '../lib/ids';
import { PRODUCT_NAME } from '../mail/templates';
import { CLAIM, SCOPE } from './claims';

/**
 * LTI Dynamic Registration (IMS LTI Dynamic Registration 1.0) with a one-time key: the LMS opens our registration
 * URL in its own frame, where our session cookie may never arrive, so the URL itself carries the administrator's
 * consent: a key made in the console, bound to that administrator, valid one hour and spent by its first
 * registration (its id is kept as a used nonce of the platform it registered).
 */

const AUDIENCE = 'lti-register';
const KEY_LIFETIME_S = 60 * 60;
const usedKeyNonce = (keyId: string) => `register:${keyId}`;

export class RegistrationFailed extends Error {
  constructor(
    readonly reason: MessageKey,
    detail: string,
  ) {
    super(detail);
  }
}

/** A registration key for the administrator, and when it stops working. */
export async function newRegistrationKey(secret: Uint8Array, adminId: string) {
  const expiresAt = Date.now() + KEY_LIFETIME_S * 1000;
  const key = await new SignJWT({ uid: adminId })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setJti(newId())
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(secret);
  return { key, expiresAt };
}

/** The administrator behind a key that is ours, live, unspent, and whose account is still an administrator's. */
export async function readRegistrationKey(db: Db, secret: Uint8Array, key: string | undefined) {
  if (!key) return undefined;
  let payload: { uid?: unknown; jti?: unknown; exp?: number };
  try {
    ({ payload } = await jwtVerify(key, secret, { audience: AUDIENCE, algorithms: ['HS256'] }));
  } catch {
    return undefined;
  }
  if (typeof payload.uid !== 'string' || typeof payload.jti !== 'string') return undefined;
  const [admin] = await db.select().from(users).where(eq(users.id, payload.uid)).limit(1);
  if (!admin?.isAdmin || admin.disabledAt) return undefined;
  const [spent] = await db
    .select()
    .from(ltiNonces)
    .where(eq(ltiNonces.nonce, usedKeyNonce(payload.jti)))
    .limit(1);
  if (spent) return undefined;
  return { userId: admin.id, keyId: payload.jti, expiresAt: (payload.exp ?? 0) * 1000 };
}

const allowedUrl = (text: unknown): text is string => {
  if (typeof text !== 'string') return false;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  } catch {
    return false;
  }
};

async function fetchJson(url: string, init?: RequestInit) {
  const response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new RegistrationFailed('lti.registrationFailed.platform', `${url}: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Reads the platform's OpenID configuration, registers us at its registration endpoint (with its one-time token),
 * and keeps the platform it describes. Registering the same (issuer, client id) again updates it.
 */
export async function registerWithPlatform(
  db: Db,
  options: {
    toolBase: string;
    configurationUrl: string;
    registrationToken: string | undefined;
    keyId: string;
    keyExpiresAt: number;
  },
) {
  const openid = await fetchJson(options.configurationUrl);
  const platformConfig = (openid[CLAIM.platformConfiguration] ?? {}) as Record<string, unknown>;
  const { issuer, authorization_endpoint, token_endpoint, jwks_uri, registration_endpoint } = openid;
  for (const url of [issuer, authorization_endpoint, token_endpoint, jwks_uri, registration_endpoint]) {
    if (!allowedUrl(url)) throw new RegistrationFailed('lti.registrationFailed.platform', 'configuration incomplete');
  }
  const launchUrl = `${options.toolBase}/api/lti/launch`;
  const toolHost = new URL(options.toolBase).host;
  const registration = {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: `${options.toolBase}/api/lti/login`,
    redirect_uris: [launchUrl],
    client_name: PRODUCT_NAME,
    jwks_uri: `${options.toolBase}/api/lti/jwks`,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: [SCOPE.lineItem, SCOPE.lineItemReadOnly, SCOPE.resultReadOnly, SCOPE.score, SCOPE.nrps].join(' '),
    [CLAIM.toolConfiguration]: {
      domain: toolHost,
      target_link_uri: launchUrl,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [{ type: 'LtiDeepLinkingRequest', target_link_uri: launchUrl, label: PRODUCT_NAME }],
    },
  };
  const answer = await fetchJson(registration_endpoint as string, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.registrationToken && { authorization: `Bearer ${options.registrationToken}` }),
    },
    body: JSON.stringify(registration),
  });
  const clientId = answer.client_id;
  if (typeof clientId !== 'string' || clientId === '') {
    throw new RegistrationFailed('lti.registrationFailed.platform', 'no client_id in the answer');
  }
  const toolConfig = (answer[CLAIM.toolConfiguration] ?? {}) as Record<string, unknown>;
  const deploymentIds = typeof toolConfig.deployment_id === 'string' ? [toolConfig.deployment_id] : [];
  const name =
    (typeof platformConfig.product_family_code === 'string' && platformConfig.product_family_code) ||
    new URL(issuer as string).host;
  const values = {
    name: name.slice(0, 255),
    issuer: issuer as string,
    clientId,
    authLoginUrl: authorization_endpoint as string,
    authTokenUrl: token_endpoint as string,
    jwksUrl: jwks_uri as string,
    deploymentIds: JSON.stringify(deploymentIds),
  };
  const [platform] = await db
    .insert(ltiPlatforms)
    .values({ id: newId(), ...values, createdAt: Date.now() })
    .onConflictDoUpdate({ target: [ltiPlatforms.issuer, ltiPlatforms.clientId], set: values })
    .returning();
  await db
    .insert(ltiNonces)
    .values({ nonce: usedKeyNonce(options.keyId), platformId: platform.id, expiresAt: options.keyExpiresAt })
    .onConflictDoNothing();
  return platform;
}
