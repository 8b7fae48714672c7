import type { Db } from '../db/client';
import { signAsTool } from './keys';

/**
 * LTI Advantage service tokens (docs/lti.md, "Rosters" and "Grades"): OAuth 2 client credentials with a JWT client
 * assertion (RFC 7523, as the LTI Security Framework asks), signed by our newest tool key. Tokens are kept in memory
 * per platform and scope set until shortly before they expire; a token or key is never logged or put in an error.
 */

export const LTI_SCOPES = {
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  resultReadonly: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
} as const;

/** What a service call needs of a registered platform. */
export type ServicePlatform = { id: string; clientId: string; authTokenUrl: string };

/** A token is dropped this long before the platform says it expires (clocks, and the call it is used for). */
const EXPIRY_MARGIN_MS = 60_000;
/** A platform that answers nothing in this time is down for this attempt (the job tries again later). */
export const SERVICE_TIMEOUT_MS = 15_000;
/** The most of a token answer read (a token is a few KB at most). */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

const cache = new Map<string, { token: string; expiresAt: number }>();
const cacheKey = (platform: ServicePlatform, scopes: readonly string[]) =>
  `${platform.id} ${[...scopes].sort().join(' ')}`;

/** A service call failed: `status` is the platform's (0 when it did not answer); the message names no secret. */
export class LtiServiceError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Where a URL points, for messages and logs (never its query, which a platform may fill with anything). */
export const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
};

/** An access token for `scopes` at the platform: the cached one, or a new one from its token endpoint. */
export async function serviceToken(db: Db, platform: ServicePlatform, scopes: readonly string[], now = Date.now()) {
  const key = cacheKey(platform, scopes);
  const cached = cache.get(key);
  if (cached && cached.expiresAt > now) return cached.token;
  const assertion = await signAsTool(
    db,
    // signAsTool adds iat, exp and a fresh jti.
    { iss: platform.clientId, sub: platform.clientId },
    { audience: platform.authTokenUrl, expiresIn: '5m' },
  );
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
    scope: scopes.join(' '),
  });
  let response: Response;
  try {
    response = await fetch(platform.authTokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new LtiServiceError(
      `The LMS token endpoint at ${hostOf(platform.authTokenUrl)} did not answer (${(error as Error).name}).`,
      0,
    );
  }
  const text = await readCapped(response, MAX_TOKEN_ANSWER_BYTES);
  if (!response.ok) {
    throw new LtiServiceError(
      `The LMS token endpoint at ${hostOf(platform.authTokenUrl)} refused our request (HTTP ${response.status}).`,
      response.status,
    );
  }
  let answer: { access_token?: unknown; expires_in?: unknown };
  try {
    answer = JSON.parse(text);
  } catch {
    answer = {};
  }
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new LtiServiceError(
      `The LMS token endpoint at ${hostOf(platform.authTokenUrl)} gave no access token.`,
      response.status,
    );
  }
  const lifetimeMs = (typeof answer.expires_in === 'number' ? answer.expires_in : 3600) * 1000;
  cache.set(key, { token: answer.access_token, expiresAt: now + Math.max(0, lifetimeMs - EXPIRY_MARGIN_MS) });
  return answer.access_token;
}

/** Forgets the platform's tokens (a service answered 401: the token was revoked or the platform restarted). */
export function forgetServiceTokens(platformId: string) {
  for (const key of cache.keys()) if (key.startsWith(`${platformId} `)) cache.delete(key);
}

/**
 * A call to an LTI service with a bearer token for `scopes`; a 401 drops the cached token and tries once more with
 * a new one. Answers the response (any status): the caller reads it.
 */
export async function serviceFetch(
  db: Db,
  platform: ServicePlatform,
  scopes: readonly string[],
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  for (let attempt = 0; ; attempt++) {
    const token = await serviceToken(db, platform, scopes);
    let response: Response;
    try {
      response = await fetch(url, {
        method: init.method ?? 'GET',
        headers: { ...init.headers, authorization: `Bearer ${token}` },
        body: init.body,
        redirect: 'error',
        signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
      });
    } catch (error) {
      throw new LtiServiceError(`The LMS at ${hostOf(url)} did not answer (${(error as Error).name}).`, 0);
    }
    if (response.status !== 401 || attempt > 0) return response;
    await response.body?.cancel();
    forgetServiceTokens(platform.id);
  }
}

/** The answer's text, refused past `maxBytes` (a platform's answer is data from elsewhere). */
export async function readCapped(response: Response, maxBytes: number) {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new LtiServiceError(`The answer from ${hostOf(response.url)} is larger than ${maxBytes} bytes.`, 0);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
