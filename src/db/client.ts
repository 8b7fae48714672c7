import { Database } from 'bun:sqlite';
import { drizzle } from 'drizzle-orm/bun-sqlite';
import * as schema from './schema';

export type Db = ReturnType<typeof openDatabase>['db'];

/** Opens the SQLite file with the pragmas this server relies on. */
export function openDatabase(file: string) {
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commits.
  sqlite.exec('PRAGMA synchronous = NORMAL');
  const db = drizzle({ client: sqlite, schema });
  return { sqlite, db };
}
