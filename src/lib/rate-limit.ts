import { createHash } from 'node:crypto';
import { eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { nowMs } from '../db/dialect';
import { rateLimits } from '../db/schema';

/**
 * A fixed-window counter per key, kept in the database: every server process counts into the same rows, so N
 * processes allow what one allows. One upsert per hit on either engine, timed by the database's clock. Rows keep a
 * hash of the key, never the address or email itself.
 */
export function createRateLimiter(db: Db, name: string, limit: number, windowMs: number) {
  const keyOf = (key: string) => createHash('sha256').update(`${name}\u0000${key}`).digest('base64url');
  const wait = (resetAt: number, now: number) => Math.max(1, Math.ceil((resetAt - now) / 1000));
  return {
    /** Counts one hit; resolves to the seconds to wait when over the limit, else 0. */
    async hit(key: string): Promise<number> {
      const now = nowMs(db);
      const [row] = await db
        .insert(rateLimits)
        .values({ key: keyOf(key), count: 1, resetAt: sql`${now} + ${windowMs}` })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${rateLimits.resetAt} <= ${now} then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${rateLimits.resetAt} <= ${now} then ${now} + ${windowMs} else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt, now: sql<number>`${now}` });
      if (!row || row.count <= limit) return 0;
      return wait(Number(row.resetAt), Number(row.now));
    },
    /** Seconds to wait before this key may try again (0 when under the limit); counts nothing. */
    async waitFor(key: string): Promise<number> {
      const [row] = await db
        .select({ count: rateLimits.count, resetAt: rateLimits.resetAt, now: nowMs(db) })
        .from(rateLimits)
        .where(eq(rateLimits.key, keyOf(key)))
        .limit(1);
      if (!row || Number(row.resetAt) <= Number(row.now) || row.count < limit) return 0;
      return wait(Number(row.resetAt), Number(row.now));
    },
    async reset(key: string) {
      await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(key)));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Drops the windows that have ended (periodic work): the table holds only live counts. */
export async function deleteEndedWindows(db: Db) {
  const gone = await db
    .delete(rateLimits)
    .where(lte(rateLimits.resetAt, nowMs(db)))
    .returning({ key: rateLimits.key });
  return gone.length;
}
