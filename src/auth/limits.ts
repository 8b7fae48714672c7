import { tooMany } from '../errors';
import { createRateLimiter } from '../http/rate-limit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every limit on the account routes, in one place (docs/accounts.md explains each). In memory: one server
 * process guards them; a restart forgets the counts, which only ever lets a few more tries through.
 *
 * Per-client limits count by network address, and a whole school may share one (NAT): they are set to stop a
 * script, not a class of thirty signing up at once.
 */
export function createAccountLimits() {
  return {
    /** A code mail per kind and address (`signup:a@b`, `reset:a@b`): 1 a minute… */
    codeMailMinute: createRateLimiter(1, MINUTE),
    /** …and 10 an hour. */
    codeMailHour: createRateLimiter(10, HOUR),
    /** Wrong codes per address, over all its codes: guesses stay in the tens an hour. */
    wrongCodesPerAddress: createRateLimiter(20, HOUR),
    /** Wrong passwords per account from browsers that never signed in to it (a sprayer's side)… */
    failedLoginsPerAccount: createRateLimiter(10, 15 * MINUTE),
    /** …and per account and known browser, so the owner's own device is never locked by someone else. */
    failedLoginsPerDevice: createRateLimiter(10, 15 * MINUTE),
    perClient: {
      signups: createRateLimiter(60, HOUR),
      failedLogins: createRateLimiter(60, 15 * MINUTE),
      codeChecks: createRateLimiter(60, 15 * MINUTE),
      failedJoins: createRateLimiter(60, 15 * MINUTE),
      recovery: createRateLimiter(30, HOUR),
    },
  };
}

export type AccountLimits = ReturnType<typeof createAccountLimits>;
type Limiter = ReturnType<typeof createRateLimiter>;

/** Throws the 429 "wait" answer when `limiter` is over its limit for `key`; counts nothing. */
export function refuseWhileLimited(limiter: Limiter, key: string, what = 'attempts') {
  const seconds = limiter.waitFor(key);
  if (seconds > 0) throw tooMany(`Too many ${what}. Please try again in ${inWords(seconds)}.`, seconds);
}

/** Counts one hit; throws the 429 answer when it goes over the limit. */
export function countOrRefuse(limiter: Limiter, key: string, what = 'attempts') {
  const seconds = limiter.hit(key);
  if (seconds > 0) throw tooMany(`Too many ${what}. Please try again in ${inWords(seconds)}.`, seconds);
}

/**
 * Both mail caps for one address: a new code of one kind (sign-up or password reset) goes out at most once a
 * minute, and codes of both kinds ten times an hour.
 */
export function countCodeMail(limits: AccountLimits, kind: 'signup' | 'reset', address: string) {
  const minute = limits.codeMailMinute.waitFor(`${kind}:${address}`);
  if (minute > 0) throw tooMany(`Please wait ${minute} seconds before asking for a new code.`, minute);
  refuseWhileLimited(limits.codeMailHour, address, 'codes asked for this address');
  limits.codeMailMinute.hit(`${kind}:${address}`);
  limits.codeMailHour.hit(address);
}

export const inWords = (seconds: number) =>
  seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
