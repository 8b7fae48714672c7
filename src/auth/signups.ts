import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Signup, signups, type User, users } from '../db/schema';
import { transaction } from '../db/transaction';
import { emit } from '../events/events';
import { newId } from '../lib/ids';
import { CODE_LIFETIME_MS, MAX_CODE_ATTEMPTS } from './email-codes';
import { hashKey } from './sessions';

/** A sign-up not verified within a day is forgotten. */
export const SIGNUP_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** At most this many sign-ups wait for one address; a new one replaces the oldest. */
export const MAX_PENDING_PER_ADDRESS = 5;

const hashCode = (signupId: string, code: string) =>
  createHash('sha256').update(`signup:${signupId}:${code}`).digest('hex');
const newCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

/** The sign-ups still waiting for this address, oldest first. */
export async function pendingSignups(db: Db, email: string, now = Date.now()) {
  return db
    .select()
    .from(signups)
    .where(and(eq(signups.email, email), gt(signups.expiresAt, now)))
    .orderBy(asc(signups.createdAt), asc(signups.id));
}

/** Records a sign-up with its own password and code, bound to the registering browser's key. */
export async function createSignup(
  db: Db,
  values: Pick<Signup, 'email' | 'username' | 'role' | 'passwordHash'>,
  clientKey: string,
  now = Date.now(),
): Promise<{ signup: Signup; code: string }> {
  return transaction(db, async (tx) => {
    await tx.delete(signups).where(and(eq(signups.email, values.email), lte(signups.expiresAt, now)));
    const waiting = await pendingSignups(tx, values.email, now);
    const surplus = waiting.length - (MAX_PENDING_PER_ADDRESS - 1);
    if (surplus > 0) {
      await tx.delete(signups).where(
        inArray(
          signups.id,
          waiting.slice(0, surplus).map((row) => row.id),
        ),
      );
    }
    const id = newId();
    const code = newCode();
    const [signup] = (await tx
      .insert(signups)
      .values({
        id,
        ...values,
        codeHash: hashCode(id, code),
        codeExpiresAt: now + CODE_LIFETIME_MS,
        sentAt: now,
        clientKeyHash: hashKey(clientKey),
        expiresAt: now + SIGNUP_LIFETIME_MS,
      })
      .returning()) as Signup[];
    return { signup, code };
  });
}

/** A fresh code for a waiting sign-up (resend, or login of a sign-up); optionally binds it to a new browser. */
export async function renewSignupCode(db: Db, signupId: string, clientKey?: string, now = Date.now()) {
  const code = newCode();
  await db
    .update(signups)
    .set({
      codeHash: hashCode(signupId, code),
      codeExpiresAt: now + CODE_LIFETIME_MS,
      failedAttempts: 0,
      sentAt: now,
      ...(clientKey ? { clientKeyHash: hashKey(clientKey) } : {}),
    })
    .where(eq(signups.id, signupId));
  return code;
}

export type SignupCheck =
  /** `fromItsBrowser`: the code came back with the `signup` cookie of the browser that chose the password. */
  | { kind: 'ok'; signup: Signup; fromItsBrowser: boolean }
  | { kind: 'none' }
  | { kind: 'expired' }
  | { kind: 'used_up' }
  | { kind: 'wrong'; left: number }
  | { kind: 'other_browser' };

/**
 * Checks a code against the sign-ups waiting for the address; it writes only to count a wrong code. A right code
 * typed in a browser that holds another waiting sign-up for the address is refused (that browser's owner types
 * their own code). A right code from anywhere but its own browser is `ok` with `fromItsBrowser: false`: the
 * password stored with it was typed before the address was proven, by whoever, so it must not open the account
 * (see signupPasswordHash; docs/accounts.md, "sign-up takeover").
 */
export async function checkSignupCode(
  db: Db,
  email: string,
  code: string,
  clientKey: string | undefined,
  now = Date.now(),
): Promise<SignupCheck> {
  const waiting = (await pendingSignups(db, email, now)).filter((row) => row.codeHash !== '');
  if (waiting.length === 0) return { kind: 'none' };
  const live = waiting.filter((row) => row.failedAttempts < MAX_CODE_ATTEMPTS && row.codeExpiresAt >= now);
  const given = (row: Signup) => Buffer.from(hashCode(row.id, code.trim()), 'hex');
  const match = live.find((row) => timingSafeEqual(Buffer.from(row.codeHash, 'hex'), given(row)));
  if (match) {
    const browser = clientKey === undefined ? undefined : hashKey(clientKey);
    // A sign-up made before the cookie existed (null) has no browser that can prove it chose the password.
    if (browser !== undefined && browser === match.clientKeyHash)
      return { kind: 'ok', signup: match, fromItsBrowser: true };
    if (browser !== undefined && waiting.some((row) => row.clientKeyHash === browser)) return { kind: 'other_browser' };
    return { kind: 'ok', signup: match, fromItsBrowser: false };
  }
  if (live.length === 0) {
    return waiting.some((row) => row.failedAttempts < MAX_CODE_ATTEMPTS) ? { kind: 'expired' } : { kind: 'used_up' };
  }
  await db
    .update(signups)
    .set({ failedAttempts: sql`${signups.failedAttempts} + 1` })
    .where(
      inArray(
        signups.id,
        live.map((row) => row.id),
      ),
    );
  const left = Math.min(...live.map((row) => MAX_CODE_ATTEMPTS - row.failedAttempts - 1));
  return left <= 0 ? { kind: 'used_up' } : { kind: 'wrong', left };
}

/**
 * The password hash a verified sign-up's account starts with. A password chosen with the code (`chosenHash`)
 * always wins. Without one, the sign-up's stored password is used only when the code came back in the browser
 * that typed it; otherwise undefined: the caller must ask for a password, so a password someone typed for an
 * address they could not prove never opens the account.
 */
export function signupPasswordHash(
  check: Extract<SignupCheck, { kind: 'ok' }>,
  chosenHash: string | undefined,
): string | undefined {
  if (chosenHash !== undefined) return chosenHash;
  return check.fromItsBrowser ? check.signup.passwordHash : undefined;
}

/**
 * The verified sign-up becomes the account with the password hash `passwordHash` (see signupPasswordHash) and
 * the standing `standing` gives it (administrator, teacher approval); every sign-up for the address goes, and
 * with them every password stored for it. Undefined if the address was taken meanwhile.
 */
export async function accountFromSignup(
  db: Db,
  signup: Signup,
  passwordHash: string,
  standing: (isFirstAccount: boolean) => Pick<User, 'isAdmin' | 'teacherStatus'>,
  now = Date.now(),
): Promise<User | undefined> {
  return transaction(db, async (tx) => {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, signup.email)).limit(1);
    await tx.delete(signups).where(eq(signups.email, signup.email));
    if (taken) return undefined;
    const isFirstAccount = (await tx.$count(users)) === 0;
    const [user] = await tx
      .insert(users)
      .values({
        id: newId(),
        username: signup.username,
        email: signup.email,
        passwordHash,
        role: signup.role,
        ...standing(isFirstAccount),
        emailVerifiedAt: now,
      })
      .returning();
    if (user?.teacherStatus === 'pending') await emit(tx, { type: 'teacher-waits', teacherId: user.id });
    return user as User;
  });
}

export async function deleteSignup(db: Db, signupId: string) {
  await db.delete(signups).where(eq(signups.id, signupId));
}
