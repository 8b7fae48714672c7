import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Where the two engines really differ, one function each, branching on the engine inside (Gitea's
 * `BuildCaseInsensitiveLike` shape). Everything else is one query set, written the same for both.
 */
export type Engine = 'sqlite' | 'postgres';

const engines = new WeakMap<object, Engine>();

/** Recorded by `openDatabase` (and `transaction` for PostgreSQL's per-transaction handles) for each handle. */
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
 * `column IN` the strings of a JSON array bound as one parameter (`JSON.stringify(ids)`): a list query that can be
 * prepared once whatever the list's length.
 */
export function inJsonList(db: Db, column: SQL.Aliased | unknown, list: unknown): SQL {
  return engineOf(db) === 'postgres'
    ? sql`${column} in (select jsonb_array_elements_text(cast(${list} as text)::jsonb))`
    : sql`${column} in (select value from json_each(${list}))`;
}

/**
 * Locks the rows a select reads until its transaction ends, so a read-then-write cannot lose an update: PostgreSQL's
 * `FOR UPDATE`; SQLite's transactions already take turns on its one connection.
 */
export function forUpdate<Query>(db: Db, query: Query): Query {
  return engineOf(db) === 'postgres' ? (query as { for(strength: 'update'): Query }).for('update') : query;
}

/** `column` contains `text` without regard to case (SQLite's LIKE already ignores ASCII case; PostgreSQL's does not). */
export function containsIgnoringCase(db: Db, column: unknown, text: string): SQL {
  const pattern = `%${text.replace(/[%_\\]/g, (char) => `\\${char}`)}%`;
  return engineOf(db) === 'postgres'
    ? sql`${column} ilike ${pattern} escape '\\'`
    : sql`${column} like ${pattern} escape '\\'`;
}

/** Whether a failed statement broke a UNIQUE index or primary key, read from the engine's error code (not its text). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: unknown; errno?: unknown; cause?: unknown } | undefined; current; ) {
    // SQLite's extended codes; PostgreSQL's SQLSTATE 23505 (unique_violation), which Bun's driver puts in `errno`.
    if (current.code === 'SQLITE_CONSTRAINT_UNIQUE' || current.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
    if (current.errno === '23505' || current.code === '23505') return true;
    current = current.cause as typeof current;
  }
  return false;
}

/**
 * Appended to a sub-select that picks a row to claim: on PostgreSQL it locks that row and skips rows other
 * transactions hold, so concurrent claims pick different rows; SQLite's writers take turns, so it needs nothing.
 */
export function skipLocked(db: Db): SQL {
  return engineOf(db) === 'postgres' ? sql` for update skip locked` : sql``;
}
