import type { Db } from './client';
import { engineOf } from './dialect';
import { isTransaction } from './transaction';

type Params = Record<string, unknown>;
/** A drizzle query built with `sql.placeholder`s; on SQLite its `.prepare()` gives a statement with `.all`. */
type Buildable = { prepare(): { all(params?: Params): unknown } };
type PgPrepared = { execute(params: Params): Promise<unknown> };
type RowsOf<B extends Buildable> = Awaited<ReturnType<ReturnType<B['prepare']>['all']>>;

/**
 * A statement on a hot path. On SQLite it is prepared once per database handle (tests open many) on first use,
 * which saves building the query with drizzle on every request. On PostgreSQL it is built once for the pool too
 * (Bun's SQL prepares a parameterized statement once per connection), and per call inside a transaction, whose
 * statements must go to that transaction's own connection.
 * Answers every row (for an insert, update or delete without `returning`, an empty list or the driver's result).
 */
export function preparedStatement<B extends Buildable>(name: string, build: (db: Db) => B) {
  const byDb = new WeakMap<Db, ReturnType<B['prepare']>>();
  const pgByDb = new WeakMap<Db, PgPrepared>();
  return async (db: Db, params: Params = {}): Promise<RowsOf<B>> => {
    if (engineOf(db) === 'postgres') {
      const prepare = () => (build(db) as unknown as { prepare(name: string): PgPrepared }).prepare(name);
      if (isTransaction(db)) return (await prepare().execute(params)) as RowsOf<B>;
      let pooled = pgByDb.get(db);
      if (!pooled) {
        pooled = prepare();
        pgByDb.set(db, pooled);
      }
      return (await pooled.execute(params)) as RowsOf<B>;
    }
    let statement = byDb.get(db);
    if (!statement) {
      statement = build(db).prepare() as ReturnType<B['prepare']>;
      byDb.set(db, statement);
    }
    return (await statement.all(params)) as RowsOf<B>;
  };
}
