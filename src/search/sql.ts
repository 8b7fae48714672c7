import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { engineOf } from '../db/dialect';

/**
 * A statement drizzle's builders cannot write (FTS5's MATCH and bm25, PostgreSQL's tsquery), run on either engine:
 * SQLite's `all`, PostgreSQL's `execute`. Answers the rows.
 */
export async function runSql<Row>(db: Db, query: SQL): Promise<Row[]> {
  if (engineOf(db) === 'postgres') {
    const result = (await (db as unknown as { execute(query: SQL): Promise<unknown> }).execute(query)) as
      | Row[]
      | { rows: Row[] };
    return Array.isArray(result) ? result : result.rows;
  }
  return db.all<Row>(query);
}
