import type { Db } from './client';

/** Statements on a hot path, prepared once per database (tests open many) on first use. */
export function preparedPerDatabase<T>(prepare: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDb.get(db);
    if (!prepared) {
      prepared = prepare(db);
      byDb.set(db, prepared);
    }
    return prepared;
  };
}
