import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { drizzle as drizzlePostgres } from 'drizzle-orm/bun-sql';
import { drizzle as drizzleSqlite } from 'drizzle-orm/bun-sqlite';
import { type Engine, recordEngine } from './dialect';
import { selectEngineTables, sqliteTables, tablesOf } from './schema';
import { guardSqlite } from './transaction';

/**
 * The one type every query is written against. A PostgreSQL handle is typed as this too: the queries use only
 * what both engines' drizzle builders share (awaited select/insert/update/delete, returning, onConflict…), and
 * the tables they import from ./schema are PostgreSQL's once a PostgreSQL database is opened (see schema.ts).
 */
export type Db = ReturnType<typeof drizzleSqlite<typeof sqliteTables>>;

/** Where the data lives: `databaseUrl` (postgres://…) selects PostgreSQL; unset, the SQLite file. */
export type DatabaseTarget = { databaseUrl?: string; databaseFile: string };

export type DatabaseHandle = {
  db: Db;
  engine: Engine;
  /** The SQLite connection (SQLite only): migrations, backups. */
  sqlite?: Database;
  /** The PostgreSQL pool (PostgreSQL only): migrations. */
  postgres?: SQL;
  close(): Promise<void>;
};
export type SqliteHandle = DatabaseHandle & { sqlite: Database };

/** How many connections a process keeps to PostgreSQL: each transaction holds one while it runs. */
const POSTGRES_POOL_SIZE = 10;

/**
 * Opens the engine the settings choose. A string is a SQLite file (tools and tests that read one directly).
 * One process works with one engine: opening one makes ./schema's tables that engine's.
 */
export function openDatabase(file: string): SqliteHandle;
export function openDatabase(target: DatabaseTarget): DatabaseHandle;
export function openDatabase(target: DatabaseTarget | string): DatabaseHandle {
  const { databaseUrl, databaseFile } = typeof target === 'string' ? { databaseFile: target } : target;
  if (databaseUrl) return openPostgres(databaseUrl);
  return openSqlite(databaseFile);
}

function openSqlite(file: string): SqliteHandle {
  selectEngineTables('sqlite');
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commits.
  sqlite.exec('PRAGMA synchronous = NORMAL');
  // Reads map the file instead of copying pages through read(): ranking a search's 4,000 matches took 1.5× longer without.
  sqlite.exec('PRAGMA mmap_size = 268435456');
  const db = drizzleSqlite({ client: sqlite, schema: sqliteTables });
  // Transactions run on their own drizzle handle over the same connection; plain statements on `db` wait for them.
  const tx = drizzleSqlite({ client: sqlite, schema: sqliteTables });
  recordEngine(db, 'sqlite');
  recordEngine(tx, 'sqlite');
  guardSqlite(db, tx, sqlite);
  return {
    db,
    engine: 'sqlite',
    sqlite,
    close: async () => sqlite.close(),
  };
}

function openPostgres(url: string): DatabaseHandle {
  selectEngineTables('postgres');
  const postgres = new SQL(url, { max: POSTGRES_POOL_SIZE, idleTimeout: 30, connectionTimeout: 10 });
  const db = drizzlePostgres({ client: postgres, schema: tablesOf('postgres') }) as unknown as Db;
  recordEngine(db, 'postgres');
  return {
    db,
    engine: 'postgres',
    postgres,
    close: () => postgres.close({ timeout: 5 }),
  };
}
