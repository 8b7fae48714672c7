import { eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as client from 'openid-client';
import { z } from 'zod';
import {
  type FederatedProfile,
  findIdentity,
  findOrCreateFederatedUser,
  hasPassword,
  identitiesOf,
  linkIdentity,
  unlinkIdentity,
} from '../auth/federated';
import { type AccountLimits, countOrRefuse } from '../auth/limits';
import { requireUser, tokenFrom } from '../auth/middleware';
import { createOidcClient, type OidcClient, OidcFailure, type OidcProblem, profileOf } from '../auth/oidc';
import { setReauthCookie } from '../auth/reauth';
import { hashKey, newKey, sessionUser, startSession } from '../auth/sessions';
import { readToken } from '../auth/tokens';
import type { Config } from '../config';
import { providersJson, signInMethodsJson } from '../contract/users';
import { deleteEndedOidcAttempts, OIDC_ATTEMPT_LIFETIME_MS } from '../db/queries/oidc-attempts';
import { recordLogin } from '../db/queries/users';
import { type OidcAttempt, oidcAttempts } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound, unauthorized } from '../errors';
import { clientAddress } from '../http/client-address';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { localeOfRequest, translate } from '../i18n/translate';
import type { Logger } from '../lib/log';

const ATTEMPT_COOKIE = 'oidc_attempt';
const ATTEMPT_COOKIE_PATH = '/api/auth/oidc';
const DEFAULT_NEXT = '/classroom';

/**
 * A same-origin path: one leading "/", no "//" or "\" (a browser reads "/\evil" as "//evil"), no scheme, no
 * control characters; at most 500 characters.
 */
export const nextPath = z
  .string()
  .max(500, 'fields.returnPathTooLong')
  .refine(
    (path) => /^\/(?![/\\])/.test(path) && !path.includes('\\') && !/\p{Cc}/u.test(path),
    'The return address must be a path on this site, such as /classroom.',
  )
  .refine((path) => new URL(path, 'http://same.invalid').origin === 'http://same.invalid', 'fields.returnPathNotHere');

const startQuery = z.object({
  next: nextPath.optional(),
  intent: z.enum(['sign_in', 'link', 'confirm'], { error: 'intent must be sign_in, link or confirm.' }).optional(),
  /** `switch=1`: let the person pick another account at the provider (the "Try again" after domain_not_allowed). */
  switch: z.literal('1', { error: 'switch must be 1.' }).optional(),
});

/** Where a confirmation lands without a `next`. */
const DEFAULT_CONFIRM_NEXT = '/settings';
/** Slack for clocks apart when reading the provider's `auth_time`. */
const AUTH_TIME_SKEW_MS = 60_000;

/** The one client per app (its discovery is cached), made on first use. */
const clients = new WeakMap<Config, OidcClient>();
function oidcClientOf(config: Config, log: Logger): OidcClient | undefined {
  if (!config.oidc || !config.publicUrl) return undefined;
  let oidc = clients.get(config);
  if (!oidc) {
    oidc = createOidcClient(config.oidc, `${config.publicUrl}/api/auth/oidc/callback`, `${config.publicUrl}/`, log);
    clients.set(config, oidc);
  }
  return oidc;
}

/** The provider's sign-out page for the logout answer (OIDC_END_SESSION), or undefined. */
export async function endSessionUrlOf(config: Config, log: Logger): Promise<string | undefined> {
  return oidcClientOf(config, log)?.endSessionUrl();
}

/** For OIDC_ALLOWED_DOMAINS, Google's accounts are checked on their `hd` claim (the Workspace they belong to). */
/** The school sign-in button's words: the school's own (OIDC_BUTTON_LABEL), else ours in the request's language. */
const schoolLabel = (c: Context, config: Config) =>
  config.oidc?.buttonLabel ?? translate(localeOfRequest(c), 'auth.schoolButton');

const isGoogle = (issuer: string) => /^https:\/\/accounts\.google\.com\/?$/.test(issuer);

/**
 * School sign-in (docs/accounts.md): `/api/auth/providers` says which ways in the sign-in page offers;
 * `/api/auth/oidc/start` sends the browser to the provider; `/api/auth/oidc/callback` checks its answer and signs
 * in (or links, for `intent=link` from Settings). Every failure lands on the web page `/school-sign-in?problem=…`.
 */
export function schoolSignInRoutes(deps: AppDeps & { limits: AccountLimits }) {
  const { db, config, limits } = deps;
  const secure = config.publicUrl?.startsWith('https://') ?? false;

  function problemPage(c: Context<AppEnv>, problem: OidcProblem | 'too_many_attempts', detail: string) {
    c.get('log').warn({ event: 'oidc_refused', problem, detail }, `school sign-in refused: ${problem}`);
    return c.redirect(`/school-sign-in?problem=${problem}`, 302);
  }

  /** The signed-in user of the request's `token` cookie (or bearer), if any, and the session. */
  async function signedIn(c: Context<AppEnv>) {
    const token = tokenFrom(c.req.header('authorization'), getCookie(c, 'token'));
    const claims = token ? await readToken(config.jwtSecret, token) : undefined;
    if (!claims) return undefined;
    const row = await sessionUser(db, { sessionId: claims.sessionId, userId: claims.userId, now: Date.now() });
    return row && !row.user.disabledAt ? { user: row.user, sessionId: claims.sessionId } : undefined;
  }

  /** Takes the browser's attempt (one use: it is deleted as it is read) and forgets the cookie. */
  async function takeAttempt(c: Context<AppEnv>): Promise<OidcAttempt | undefined> {
    const key = getCookie(c, ATTEMPT_COOKIE);
    deleteCookie(c, ATTEMPT_COOKIE, { path: ATTEMPT_COOKIE_PATH, httpOnly: true, sameSite: 'Lax', secure });
    if (!key || key.length > 100) return undefined;
    const [attempt] = await db
      .delete(oidcAttempts)
      .where(eq(oidcAttempts.keyHash, hashKey(key)))
      .returning();
    return attempt as OidcAttempt | undefined;
  }

  const perClient = (c: Context<AppEnv>) => clientAddress(c, config.trustProxy);

  return new Hono<AppEnv>()
    .get(
      '/providers',
      answers({ 200: providersJson }, { summary: 'The ways to sign in this server offers (no session needed).' }),
      (c) =>
        c.json({
          password: config.passwordSignin,
          oidc: config.oidc ? { label: schoolLabel(c, config) } : null,
        }),
    )

    .get(
      '/oidc/start',
      answers(
        { 302: 'To the provider, or to /school-sign-in?problem=<code>.' },
        {
          summary: 'Starts a school sign-in: 302 to the provider (code flow with PKCE, state and nonce).',
          description:
            '`next` is a path on this site to land on afterwards (default /classroom). `intent=link` (signed in) ' +
            'links the school account to the signed-in user instead, and lands on /settings?linked=school. ' +
            '`intent=confirm` (signed in) asks the provider to sign in again and, when that school account is linked ' +
            'to the signed-in user, sets a 5-minute `reauth` cookie for this session (deleting an account that has ' +
            'no password, choosing a first password) and lands on `next` (default /settings). `switch=1` lets the ' +
            'person choose another account at the provider.',
        },
      ),
      validate('query', startQuery),
      async (c) => {
        const oidc = oidcClientOf(config, deps.log);
        if (!oidc) throw notFound('oidc_off', 'errors.oidcOff');
        const query = c.req.valid('query');
        const intent = query.intent ?? 'sign_in';
        try {
          await countOrRefuse(limits.oidcStarts, perClient(c), 'signIns');
        } catch {
          return problemPage(c, 'too_many_attempts', 'start rate limit');
        }
        let linkUserId: string | null = null;
        if (intent === 'link' || intent === 'confirm') {
          const session = await signedIn(c);
          if (!session) {
            throw unauthorized(intent === 'link' ? 'errors.signInBeforeLinking' : 'errors.signInBeforeConfirming');
          }
          linkUserId = session.user.id;
        }
        const now = Date.now();
        // Attempts never finished are forgotten (any server sweeps as it starts a new one).
        await deleteEndedOidcAttempts(db, now);
        const key = newKey();
        const checks = {
          state: client.randomState(),
          nonce: client.randomNonce(),
          codeVerifier: client.randomPKCECodeVerifier(),
        };
        let url: URL;
        try {
          const ask = intent === 'confirm' ? 'login' : query.switch ? 'select_account' : undefined;
          url = await oidc.authorizationUrl(checks, ask);
        } catch (error) {
          const failure = error instanceof OidcFailure ? error : new OidcFailure('provider_unavailable', String(error));
          return problemPage(c, failure.problem, failure.detail);
        }
        await db.insert(oidcAttempts).values({
          keyHash: hashKey(key),
          ...checks,
          next:
            intent === 'link'
              ? '/settings?linked=school'
              : (query.next ?? (intent === 'confirm' ? DEFAULT_CONFIRM_NEXT : DEFAULT_NEXT)),
          intent,
          linkUserId,
          createdAt: now,
        });
        setCookie(c, ATTEMPT_COOKIE, key, {
          path: ATTEMPT_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'Lax',
          secure,
          maxAge: OIDC_ATTEMPT_LIFETIME_MS / 1000,
        });
        return c.redirect(url.href, 302);
      },
    )

    .get(
      '/oidc/callback',
      answers(
        { 302: 'On to the page to land on, or to /school-sign-in?problem=<code>.' },
        {
          summary: 'Where the provider sends the browser back: signs in (or links) and 302s on.',
          description: 'Any failure 302s to /school-sign-in?problem=<code> (docs/accounts.md lists the codes).',
        },
      ),
      async (c) => {
        const oidc = oidcClientOf(config, deps.log);
        if (!oidc || !config.oidc) throw notFound('oidc_off', 'errors.oidcOff');
        try {
          await countOrRefuse(limits.oidcCallbacks, perClient(c), 'signIns');
        } catch {
          return problemPage(c, 'too_many_attempts', 'callback rate limit');
        }
        const attempt = await takeAttempt(c);
        if (!attempt) return problemPage(c, 'expired', 'no live attempt for this browser');
        if (Date.now() - attempt.createdAt > OIDC_ATTEMPT_LIFETIME_MS) return problemPage(c, 'expired', 'too old');
        if (c.req.query('state') !== attempt.state) return problemPage(c, 'state_mismatch', 'state differs');

        let profile: FederatedProfile;
        let authTime: unknown;
        try {
          // The URL the provider redirected to, as openid-client compares it with the redirect URI.
          const callbackUrl = new URL(`${config.publicUrl}/api/auth/oidc/callback${new URL(c.req.url).search}`);
          const claims = await oidc.finish(callbackUrl, attempt);
          authTime = claims.auth_time;
          profile = profileOf(claims, config.oidc);
        } catch (error) {
          const failure = error instanceof OidcFailure ? error : new OidcFailure('invalid_response', String(error));
          return problemPage(c, failure.problem, failure.detail);
        }
        const log = c.get('log');

        if (attempt.intent === 'link' && attempt.linkUserId) {
          const linked = await linkIdentity(db, attempt.linkUserId, profile);
          if (linked.kind === 'already_linked') return problemPage(c, 'already_linked', 'identity has another account');
          log.info({ event: 'oidc_linked', userId: attempt.linkUserId }, 'school account linked');
          return c.redirect(attempt.next, 302);
        }

        if (attempt.intent === 'confirm' && attempt.linkUserId) {
          // The proof is for the session this browser brings back, whose user must be the one who started it.
          const session = await signedIn(c);
          if (!session || session.user.id !== attempt.linkUserId) {
            return problemPage(c, 'expired', 'confirm: the session that started it is gone');
          }
          const identity = await findIdentity(db, profile.issuer, profile.subject);
          if (!identity || identity.userId !== attempt.linkUserId) {
            return problemPage(c, 'confirm_mismatch', `confirm: another school account for ${attempt.linkUserId}`);
          }
          // The provider must have asked again during this attempt (max_age=0 makes it say when, in auth_time).
          if (typeof authTime !== 'number' || authTime * 1000 < attempt.createdAt - AUTH_TIME_SKEW_MS) {
            return problemPage(c, 'invalid_response', 'confirm: no fresh auth_time');
          }
          await setReauthCookie(c, config.jwtSecret, { userId: session.user.id, sessionId: session.sessionId });
          log.info({ event: 'oidc_confirmed', userId: session.user.id }, 'confirmed with the school account');
          return c.redirect(attempt.next, 302);
        }

        const result = await findOrCreateFederatedUser(
          db,
          { ...config, allowedDomains: config.oidc.allowedDomains, checkHostedDomain: isGoogle(profile.issuer) },
          profile,
        );
        if (result.kind === 'refused') {
          return problemPage(c, result.problem, result.userId ? `account ${result.userId}` : 'no account made');
        }
        const { user, created } = result;
        await recordLogin(db, user.id);
        await startSession(c, db, config.jwtSecret, user.id);
        log.info({ event: 'oidc_sign_in', userId: user.id, created }, 'signed in with the school account');
        if (created && user.isAdmin) log.info({ event: 'admin_created', userId: user.id }, 'the administrator');
        return c.redirect(attempt.next, 302);
      },
    );
}

/** Settings → Linked sign-in: the ways into the account, and unlinking a school account. */
export function signInMethodsRoutes(deps: AppDeps) {
  const { db, config } = deps;
  return new Hono<AppEnv>()
    .get(
      '/',
      answers({ 200: signInMethodsJson }, { summary: "The signed-in user's ways to sign in." }),
      requireUser(deps),
      async (c) => {
        const user = c.get('user');
        const identities = await identitiesOf(db, user.id);
        return c.json({
          password: hasPassword(user),
          school: identities.map((row) => ({ id: row.id, email: row.email, linkedAt: row.createdAt })),
          schoolLabel: config.oidc ? schoolLabel(c, config) : null,
        });
      },
    )
    .delete(
      '/school/:id',
      answers(
        { 204: 'Unlinked.' },
        { summary: 'Unlinks a school account (refused when it is the last way to sign in).' },
      ),
      requireUser(deps),
      validate('param', idParam),
      async (c) => {
        const user = c.get('user');
        const result = await unlinkIdentity(db, user.id, c.req.valid('param').id);
        if (result === 'not_found') throw notFound('not_found', 'errors.schoolAccountNotLinked');
        if (result === 'last_method') {
          throw new ApiError(409, 'last_sign_in_method', 'errors.lastSignInMethod');
        }
        c.get('log').info({ event: 'oidc_unlinked', userId: user.id }, 'school account unlinked');
        return c.body(null, 204);
      },
    );
}
