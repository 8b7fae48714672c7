import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Where the two engines really differ, one function each, branching on the engine inside (Gitea's
 * `BuildCaseInsensitiveLike` shape). Everything else is one query set, written the same for both.
 */
export type Engine = 'sqlite' | 'postgres';

const engines = new WeakMap<object, Engine>();

/** Recorded by `openDatabase` for each handle it makes. */
export function recordEngine(db: object, engine: Engine) {
  engines.set(db, engine);
}

export function engineOf(db: Db): Engine {
  return engines.get(db) ?? 'sqlite';
}

/** The database's own clock in ms since the epoch: one clock for every host of a cluster (leases, limits). */
export function nowMs(db: Db): SQL<number> {
  return engineOf(db) === 'postgres'
    ? sql<number>`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`
    : sql<number>`(cast(unixepoch('subsec') * 1000 as integer))`;
}

/** The larger of two values (SQLite's scalar `max(a, b)` is PostgreSQL's `greatest(a, b)`). */
export function greatest(db: Db, a: SQL | unknown, b: SQL | unknown): SQL<number> {
  return engineOf(db) === 'postgres' ? sql<number>`greatest(${a}, ${b})` : sql<number>`max(${a}, ${b})`;
}

/**
 * Appended to a sub-select that picks a row to claim: on PostgreSQL it locks that row and skips rows other
 * transactions hold, so concurrent claims pick different rows; SQLite's writers take turns, so it needs nothing.
 */
export function skipLocked(db: Db): SQL {
  return engineOf(db) === 'postgres' ? sql` for update skip locked` : sql``;
}
