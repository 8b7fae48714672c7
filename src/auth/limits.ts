import type { Db } from '../db/client';
import { tooMany } from '../errors';
import type { MessageKey } from '../i18n/translate';
import { createRateLimiter, type RateLimiter } from '../lib/rate-limit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every limit on the account routes, in one place (docs/accounts.md explains each). Counted in the database, so
 * every server process of a cluster counts into the same windows, and a restart forgets nothing.
 *
 * Per-client limits count by network address, and a whole school may share one (NAT): they are set to stop a
 * script, not a class of thirty signing up at once.
 */
export function createAccountLimits(db: Db) {
  const limiter = (name: string, limit: number, windowMs: number) => createRateLimiter(db, name, limit, windowMs);
  return {
    /** A code mail per kind and address (`signup:a@b`, `reset:a@b`): 1 a minute… */
    codeMailMinute: limiter('code-mail-minute', 1, MINUTE),
    /** …and 10 an hour. */
    codeMailHour: limiter('code-mail-hour', 10, HOUR),
    /** Wrong codes per address, over all its codes: guesses stay in the tens an hour. */
    wrongCodesPerAddress: limiter('wrong-codes', 20, HOUR),
    /** Wrong passwords per account from browsers that never signed in to it (a sprayer's side)… */
    failedLoginsPerAccount: limiter('failed-logins-account', 10, 15 * MINUTE),
    /** …and per account and known browser, so the owner's own device is never locked by someone else. */
    failedLoginsPerDevice: limiter('failed-logins-device', 10, 15 * MINUTE),
    /**
     * School sign-ins started and returned per network address: a whole school signs in through one address at
     * the start of a lesson, so the cap only stops a script hammering the provider through us.
     */
    oidcStarts: limiter('client-oidc-starts', 600, 15 * MINUTE),
    oidcCallbacks: limiter('client-oidc-callbacks', 600, 15 * MINUTE),
    perClient: {
      signups: limiter('client-signups', 60, HOUR),
      failedLogins: limiter('client-failed-logins', 60, 15 * MINUTE),
      codeChecks: limiter('client-code-checks', 60, 15 * MINUTE),
      failedJoins: limiter('client-failed-joins', 60, 15 * MINUTE),
      recovery: limiter('client-recovery', 30, HOUR),
    },
  };
}

export type AccountLimits = ReturnType<typeof createAccountLimits>;

/**
 * What was asked too often, each with its own sentence (a translator sees the whole of it): "Too many sign-ups
 * from this network. Please try again in 5 minutes."
 */
export type LimitedAction =
  | 'attempts'
  | 'signups'
  | 'failedLogins'
  | 'codeChecks'
  | 'wrongCodes'
  | 'passwordResets'
  | 'signIns'
  | 'wrongClassCodes'
  | 'codesForAddress';

const TOO_MANY: Record<LimitedAction, MessageKey> = {
  attempts: 'errors.tooManyAttempts',
  signups: 'errors.tooManySignups',
  failedLogins: 'errors.tooManyFailedLoginsFromNetwork',
  codeChecks: 'errors.tooManyCodeChecks',
  wrongCodes: 'errors.tooManyWrongCodesForAddress',
  passwordResets: 'errors.tooManyPasswordResets',
  signIns: 'errors.tooManySignIns',
  wrongClassCodes: 'errors.tooManyWrongClassCodes',
  codesForAddress: 'errors.tooManyCodesForAddress',
};

/** A wait as the catalogue's duration words take it: seconds under 90, else whole minutes (`{unit}`, `{count}`). */
export const waitValues = (seconds: number) =>
  seconds < 90 ? { unit: 'seconds', count: seconds } : { unit: 'minutes', count: Math.ceil(seconds / 60) };

/** Throws the 429 "wait" answer when `limiter` is over its limit for `key`; counts nothing. */
export async function refuseWhileLimited(limiter: RateLimiter, key: string, what: LimitedAction = 'attempts') {
  const seconds = await limiter.waitFor(key);
  if (seconds > 0) throw tooMany(TOO_MANY[what], seconds, waitValues(seconds));
}

/** Counts one hit; throws the 429 answer when it goes over the limit. */
export async function countOrRefuse(limiter: RateLimiter, key: string, what: LimitedAction = 'attempts') {
  const seconds = await limiter.hit(key);
  if (seconds > 0) throw tooMany(TOO_MANY[what], seconds, waitValues(seconds));
}

/**
 * Both mail caps for one address: a new code of one kind (sign-up or password reset) goes out at most once a
 * minute, and codes of both kinds ten times an hour.
 */
export async function countCodeMail(limits: AccountLimits, kind: 'signup' | 'reset', address: string) {
  const minute = await limits.codeMailMinute.waitFor(`${kind}:${address}`);
  if (minute > 0) throw tooMany('errors.waitBeforeNewCode', minute, { count: minute });
  await refuseWhileLimited(limits.codeMailHour, address, 'codesForAddress');
  await limits.codeMailMinute.hit(`${kind}:${address}`);
  await limits.codeMailHour.hit(address);
}
