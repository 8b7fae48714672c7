import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Runs `work` as one IMMEDIATE transaction that really holds across awaits.
 *
 * drizzle's bun-sqlite driver commits an `async` transaction callback at its first `await`
 * (drizzle-team/drizzle-orm#2275), and one bun:sqlite connection is shared by every request, so two
 * overlapping transactions would interleave. Transactions therefore take turns through a per-database
 * queue; inside one, await only database work (no network or file I/O), so no other request's statement
 * runs between its BEGIN and COMMIT. A later PostgreSQL driver maps this onto `db.transaction` of a pool.
 */
export async function transaction<T>(db: Db, work: (tx: Db) => Promise<T> | T): Promise<T> {
  const previous = queues.get(db) ?? Promise.resolve();
  let release!: () => void;
  const turn = new Promise<void>((resolve) => {
    release = resolve;
  });
  const next = previous.then(() => turn);
  queues.set(db, next);
  await previous;
  try {
    db.run(sql`BEGIN IMMEDIATE`);
    try {
      const result = await work(db);
      db.run(sql`COMMIT`);
      return result;
    } catch (error) {
      db.run(sql`ROLLBACK`);
      throw error;
    }
  } finally {
    release();
    if (queues.get(db) === next) queues.delete(db);
  }
}
const queues = new WeakMap<Db, Promise<void>>();

/** Whether a failed statement broke a UNIQUE index or primary key (read from SQLite's error code, not its text). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined; current; ) {
    if (current.code === 'SQLITE_CONSTRAINT_UNIQUE' || current.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
    current = current.cause as typeof current;
  }
  return false;
}
