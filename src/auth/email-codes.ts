import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { emailCodes } from '../db/schema';

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_INTERVAL_MS = 60 * 1000;

const hashCode = (userId: string, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');

/** Makes a fresh 6-digit code for the user, replacing any earlier one, and returns it for the mail. */
export function issueCode(db: Db, userId: string, now = Date.now()): string {
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const row = {
    userId,
    codeHash: hashCode(userId, code),
    expiresAt: now + CODE_LIFETIME_MS,
    failedAttempts: 0,
    sentAt: now,
  };
  db.insert(emailCodes).values(row).onConflictDoUpdate({ target: emailCodes.userId, set: row }).run();
  return code;
}

/** Milliseconds until a new code may be sent to this user (0 when it may be sent now). */
export function resendWait(db: Db, userId: string, now = Date.now()): number {
  const row = db.select({ sentAt: emailCodes.sentAt }).from(emailCodes).where(eq(emailCodes.userId, userId)).get();
  if (!row) return 0;
  return Math.max(0, row.sentAt + RESEND_INTERVAL_MS - now);
}

export type CodeCheck = 'ok' | 'missing' | 'expired' | 'used_up' | { wrong: number };

/** Checks a code; a right one is consumed, a wrong one counts towards the limit. */
export function checkCode(db: Db, userId: string, code: string, now = Date.now()): CodeCheck {
  const row = db.select().from(emailCodes).where(eq(emailCodes.userId, userId)).get();
  if (!row) return 'missing';
  if (row.failedAttempts >= MAX_CODE_ATTEMPTS) return 'used_up';
  if (row.expiresAt < now) return 'expired';
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(hashCode(userId, code.trim()), 'hex');
  if (timingSafeEqual(expected, given)) {
    db.delete(emailCodes).where(eq(emailCodes.userId, userId)).run();
    return 'ok';
  }
  const failedAttempts = row.failedAttempts + 1;
  db.update(emailCodes).set({ failedAttempts }).where(eq(emailCodes.userId, userId)).run();
  return failedAttempts >= MAX_CODE_ATTEMPTS ? 'used_up' : { wrong: MAX_CODE_ATTEMPTS - failedAttempts };
}
