import * as client from 'openid-client';
import type { OidcSettings } from '../config';
import type { Logger } from '../lib/log';
import type { FederatedProfile } from './federated';

/**
 * The OpenID Connect side of school sign-in, with `openid-client` (a certified library): discovery, the
 * authorization URL (code flow, PKCE S256, state, nonce) and the callback's checks (issuer, audience, nonce,
 * signature, expiry: all done by openid-client). What an account is made of the claims is src/auth/federated.ts,
 * which knows nothing of OIDC, so an LTI 1.3 launch can reuse it.
 */

/** Why a school sign-in did not finish: the code the web page `/school-sign-in?problem=…` explains. */
export type OidcProblem =
  | 'state_mismatch'
  | 'expired'
  | 'provider_unavailable'
  | 'cancelled'
  | 'email_unverified'
  | 'domain_not_allowed'
  | 'invalid_response'
  | 'email_in_use'
  | 'already_linked'
  | 'account_disabled'
  /** `intent=confirm`: the school account that came back is not one linked to the signed-in user. */
  | 'confirm_mismatch';

export class OidcFailure extends Error {
  constructor(
    readonly problem: OidcProblem,
    /** For the log only (never a token or code). */
    readonly detail: string,
  ) {
    super(`${problem}: ${detail}`);
  }
}

/** Discovery and token calls give up after this long: the person sees "the school's sign-in did not answer". */
export const PROVIDER_TIMEOUT_SECONDS = 10;
/** After a failed discovery, the next sign-in tries again (no sooner than this). */
const RETRY_DISCOVERY_MS = 5_000;

/** The claims school sign-in reads, from the ID token (and the userinfo endpoint when the token lacks the email). */
export type OidcClaims = Record<string, unknown> & { iss: string; sub: string };

export type OidcAttemptChecks = { state: string; nonce: string; codeVerifier: string };

export type OidcClient = ReturnType<typeof createOidcClient>;

/**
 * One per app: discovery runs on first use and is kept; a failed discovery is retried by a later sign-in, so the
 * app starts (and password sign-in works) while the provider is down. `options` are for tests: `fetch` for a
 * process without the provider's CA in NODE_EXTRA_CA_CERTS (verification stays on), shorter waits.
 */
export function createOidcClient(
  settings: OidcSettings,
  redirectUri: string,
  postLogoutRedirectUri: string,
  log: Logger,
  options: { fetch?: typeof fetch; timeoutSeconds?: number; retryDiscoveryMs?: number } = {},
) {
  const fetchImpl = options.fetch;
  const timeout = options.timeoutSeconds ?? PROVIDER_TIMEOUT_SECONDS;
  const retryDiscoveryMs = options.retryDiscoveryMs ?? RETRY_DISCOVERY_MS;
  let discovered: Promise<client.Configuration> | undefined;
  let failedAt = 0;

  function configuration(): Promise<client.Configuration> {
    if (discovered) return discovered;
    if (Date.now() - failedAt < retryDiscoveryMs) {
      return Promise.reject(new OidcFailure('provider_unavailable', 'discovery failed moments ago'));
    }
    const discoveryOptions: client.DiscoveryRequestOptions = { timeout };
    if (fetchImpl) discoveryOptions[client.customFetch] = fetchImpl as client.CustomFetch;
    const authentication = settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None();
    discovered = client
      .discovery(new URL(settings.issuer), settings.clientId, undefined, authentication, discoveryOptions)
      .catch((error: unknown) => {
        discovered = undefined;
        failedAt = Date.now();
        log.warn(
          { event: 'oidc_discovery_failed', issuer: settings.issuer, error: describe(error) },
          'school sign-in: the provider did not answer its discovery',
        );
        throw new OidcFailure('provider_unavailable', `discovery: ${describe(error)}`);
      });
    return discovered;
  }

  return {
    settings,
    /**
     * Where to send the browser: the provider's authorization endpoint with this attempt's checks. `ask`:
     * `login` makes the provider ask for the sign-in again (`prompt=login`, and `max_age=0` so the ID token says
     * when that was in `auth_time`; Google knows no `prompt=login` and gets `select_account` with `max_age=0`);
     * `select_account` lets the person pick another account (after `domain_not_allowed`).
     */
    async authorizationUrl(checks: OidcAttemptChecks, ask?: 'login' | 'select_account'): Promise<URL> {
      const config = await configuration();
      const extra: Record<string, string> = {};
      if (ask === 'select_account') extra.prompt = 'select_account';
      if (ask === 'login') {
        extra.prompt = /^https:\/\/accounts\.google\.com\/?$/.test(settings.issuer) ? 'select_account' : 'login';
        extra.max_age = '0';
      }
      return client.buildAuthorizationUrl(config, {
        ...extra,
        redirect_uri: redirectUri,
        scope: settings.scopes,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      });
    },

    /**
     * Redeems the callback's code and checks the ID token (issuer, audience, nonce, signature, times). Throws an
     * OidcFailure with the problem to show.
     */
    async finish(callbackUrl: URL, checks: OidcAttemptChecks): Promise<OidcClaims> {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw failureOf(error);
      }
      const claims = tokens.claims() as OidcClaims | undefined;
      if (!claims) throw new OidcFailure('invalid_response', 'no ID token');
      // Google, Entra ID and Keycloak put the email in the ID token; others only at the userinfo endpoint.
      if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
        try {
          const more = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
          return { ...more, ...claims, email: more.email, email_verified: more.email_verified } as OidcClaims;
        } catch (error) {
          throw failureOf(error);
        }
      }
      return claims;
    },

    /** The provider's sign-out page, when it has one and OIDC_END_SESSION is on; it comes back to PUBLIC_URL. */
    async endSessionUrl(): Promise<string | undefined> {
      if (!settings.endSession) return undefined;
      try {
        // Signing out never waits long for a provider that is down: without its page, the app's sign-out stands.
        const config = await Promise.race([configuration(), Bun.sleep(2_000).then(() => undefined)]);
        if (!config?.serverMetadata().end_session_endpoint) return undefined;
        return client
          .buildEndSessionUrl(config, { client_id: settings.clientId, post_logout_redirect_uri: postLogoutRedirectUri })
          .toString();
      } catch {
        return undefined;
      }
    },
  };
}

/** The checked claims as the provider-neutral profile that src/auth/federated.ts works with. */
export function profileOf(claims: OidcClaims, settings: OidcSettings): FederatedProfile {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const claim = settings.teacherClaim ? claims[settings.teacherClaim] : undefined;
  const values = Array.isArray(claim) ? claim : [claim];
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(claims.email)?.toLowerCase(),
    // Entra ID sends no email_verified; its `xms_edov` says the domain's owner verified the address.
    emailVerified: claims.email_verified === true || claims.xms_edov === true || claims.xms_edov === 1,
    name:
      text(claims.name) ??
      ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') ||
        text(claims.preferred_username)),
    hostedDomain: text(claims.hd),
    teacherByClaim: values.some((value) => typeof value === 'string' && settings.teacherValues.includes(value)),
  };
}

/** A short description of an error for the log: its class, code and message, never a response body or token. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}${cause}`.slice(0, 300);
}

/** What went wrong at the callback, in the problem codes the page explains. */
function failureOf(error: unknown): OidcFailure {
  if (error instanceof OidcFailure) return error;
  if (error instanceof client.AuthorizationResponseError) {
    return new OidcFailure(
      error.error === 'access_denied' ? 'cancelled' : 'invalid_response',
      `provider: ${error.error}`,
    );
  }
  if (error instanceof client.ResponseBodyError) {
    // The token endpoint refused the code (used twice, expired, wrong verifier) or failed itself.
    return new OidcFailure(
      error.status >= 500 ? 'provider_unavailable' : 'invalid_response',
      `token endpoint ${error.status} ${error.error}`,
    );
  }
  const code = (error as { code?: unknown }).code;
  const unavailable = new Set([
    'OAUTH_TIMEOUT',
    'OAUTH_ABORT',
    'OAUTH_RESPONSE_IS_NOT_CONFORM',
    'OAUTH_RESPONSE_IS_NOT_JSON',
  ]);
  if (typeof code === 'string' && unavailable.has(code))
    return new OidcFailure('provider_unavailable', describe(error));
  // A failed connection: fetch's own error, wrapped by openid-client without a code.
  if (error instanceof client.ClientError && code === undefined) {
    return new OidcFailure('provider_unavailable', describe(error));
  }
  if (error instanceof TypeError && code === undefined) return new OidcFailure('provider_unavailable', describe(error));
  // Everything else is an answer that failed a check: issuer, audience, nonce, signature, times.
  return new OidcFailure('invalid_response', describe(error));
}
