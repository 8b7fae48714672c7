import type { Db } from './client';
import { engineOf } from './dialect';

type Params = Record<string, unknown>;
/** A drizzle query built with `sql.placeholder`s; on SQLite its `.prepare()` gives a statement with `.all`. */
type Buildable = { prepare(): { all(params?: Params): unknown } };
type RowsOf<B extends Buildable> = Awaited<ReturnType<ReturnType<B['prepare']>['all']>>;

/**
 * A statement on a hot path. On SQLite it is prepared once per database handle (tests open many) on first use,
 * which saves building the query with drizzle on every request. On PostgreSQL it is built per call and sent as a
 * named prepared statement (the pool's connections prepare it once each); built per call because a transaction's
 * statements must go to that transaction's own connection.
 * Answers every row (for an insert, update or delete without `returning`, an empty list or the driver's result).
 */
export function preparedStatement<B extends Buildable>(name: string, build: (db: Db) => B) {
  const byDb = new WeakMap<Db, ReturnType<B['prepare']>>();
  return async (db: Db, params: Params = {}): Promise<RowsOf<B>> => {
    if (engineOf(db) === 'postgres') {
      const query = build(db) as unknown as { prepare(name: string): { execute(params: Params): Promise<unknown> } };
      return (await query.prepare(name).execute(params)) as RowsOf<B>;
    }
    let statement = byDb.get(db);
    if (!statement) {
      statement = build(db).prepare() as ReturnType<B['prepare']>;
      byDb.set(db, statement);
    }
    return (await statement.all(params)) as RowsOf<B>;
  };
}
