import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { emailCodes } from '../db/schema';

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

/** Password-reset codes (sign-up codes live with their sign-up, in signups.ts). */
const hashCode = (userId: string, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');

/** Makes a fresh 6-digit code for the user, replacing any earlier one, and returns it for the mail. */
export async function issueCode(db: Db, userId: string, now = Date.now()): Promise<string> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const row = {
    userId,
    codeHash: hashCode(userId, code),
    expiresAt: now + CODE_LIFETIME_MS,
    failedAttempts: 0,
    sentAt: now,
  };
  await db.insert(emailCodes).values(row).onConflictDoUpdate({ target: emailCodes.userId, set: row });
  return code;
}

export type CodeCheck = 'ok' | 'missing' | 'expired' | 'used_up' | { wrong: number };

/** Checks a code; a right one is consumed, a wrong one counts towards the limit. */
export async function checkCode(db: Db, userId: string, code: string, now = Date.now()): Promise<CodeCheck> {
  const [row] = await db.select().from(emailCodes).where(eq(emailCodes.userId, userId)).limit(1);
  if (!row) return 'missing';
  if (row.failedAttempts >= MAX_CODE_ATTEMPTS) return 'used_up';
  if (row.expiresAt < now) return 'expired';
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(hashCode(userId, code.trim()), 'hex');
  if (timingSafeEqual(expected, given)) {
    await db.delete(emailCodes).where(eq(emailCodes.userId, userId));
    return 'ok';
  }
  const failedAttempts = row.failedAttempts + 1;
  await db.update(emailCodes).set({ failedAttempts }).where(eq(emailCodes.userId, userId));
  return failedAttempts >= MAX_CODE_ATTEMPTS ? 'used_up' : { wrong: MAX_CODE_ATTEMPTS - failedAttempts };
}
