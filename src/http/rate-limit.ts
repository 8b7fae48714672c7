/** A fixed-window counter per key, in memory: enough for one process guarding login and mail. */
export function createRateLimiter(limit: number, windowMs: number) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Counts one hit; returns the seconds to wait when over the limit, else 0. */
    hit(key: string, now = Date.now()): number {
      const entry = hits.get(key);
      if (!entry || entry.resetAt <= now) {
        if (hits.size > 10_000) for (const [k, v] of hits) if (v.resetAt <= now) hits.delete(k);
        hits.set(key, { count: 1, resetAt: now + windowMs });
        return 0;
      }
      entry.count += 1;
      return entry.count > limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
    },
    /** Seconds to wait before this key may try again (0 when under the limit); counts nothing. */
    waitFor(key: string, now = Date.now()): number {
      const entry = hits.get(key);
      if (!entry || entry.resetAt <= now || entry.count < limit) return 0;
      return Math.ceil((entry.resetAt - now) / 1000);
    },
    reset(key: string) {
      hits.delete(key);
    },
  };
}
