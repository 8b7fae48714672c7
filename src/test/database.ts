import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { type DatabaseHandle, openDatabase } from '../db/client';
import type { Engine } from '../db/dialect';
import { migrateDatabase } from '../db/migrate';

/**
 * The engine the server tests run on: `TEST_DATABASE_URL=postgres://…` (a server the test may create databases
 * on) runs them on PostgreSQL, one fresh database per harness; unset, each harness has its own SQLite file.
 * scripts/test-all.ts runs the whole suite once per engine.
 */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testEngine: Engine = testDatabaseUrl ? 'postgres' : 'sqlite';

export type TestDatabase = {
  handle: DatabaseHandle;
  /** The settings that name this database (add them to the config's environment). */
  env: Record<string, string>;
  /** Every row of every table (see `databaseSnapshot`). */
  snapshot(): Record<string, unknown[]>;
  close(): Promise<void>;
};

/**
 * A fresh, migrated database on the test engine (`migrate: false` leaves it empty); SQLite's file goes in
 * `dataDir` as the server would put it.
 */
export async function openTestDatabase(dataDir: string, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (!testDatabaseUrl) {
    const file = join(dataDir, 'classroom.sqlite');
    const handle = openDatabase(file);
    if (migrate) await migrateDatabase(handle);
    return { handle, env: {}, snapshot: () => sqliteSnapshot(file), close: () => handle.close() };
  }
  const name = `test_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = new SQL(testDatabaseUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.href, databaseFile: join(dataDir, 'unused.sqlite') });
  if (migrate) await migrateDatabase(handle);
  return {
    handle,
    env: { DATABASE_URL: url.href, JWT_SECRET: 'test-secret-of-at-least-32-characters!!' },
    snapshot: () => postgresSnapshot(url.href),
    close: async () => {
      await handle.close();
      const dropper = new SQL(testDatabaseUrl, { max: 1 });
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.close();
    },
  };
}

/** A temp folder with a fresh database in it, for tests of the data layer without a server. */
export async function openScratchDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-db-'));
  const database = await openTestDatabase(dir);
  return {
    ...database,
    db: database.handle.db,
    close: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Tables left out of snapshots: `workers` holds each job worker's heartbeat, which moves on its own while a test
 * waits (no request writes it); `rate_limits` counts refused attempts, which is what a refusal must write.
 */
const NOT_DATA = new Set(['workers', 'rate_limits']);
/** Rows left out the same way: the periodic jobs' own rows come due and run on their own clock. */
const NOT_DATA_ROWS: Record<string, string> = { jobs: "id NOT LIKE 'periodic-%'" };
const rowFilter = (table: string) => (NOT_DATA_ROWS[table] ? ` WHERE ${NOT_DATA_ROWS[table]}` : '');

/**
 * Every row of every table, as one comparable value: what a refused request must leave exactly as it was.
 * Read through a second, read-only connection, as an outside observer would. SQLite only; see `postgresSnapshot`.
 */
export function sqliteSnapshot(databaseFile: string): Record<string, unknown[]> {
  const reader = new Database(databaseFile, { readonly: true });
  try {
    const tables = reader
      // Plain tables only: a full-text index (FTS5's virtual table and its shadow tables, some WITHOUT ROWID) is
      // derived from tables that are read here.
      .query<{ name: string }, []>(
        "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map((row) => row.name)
      .filter((name) => !NOT_DATA.has(name));
    return Object.fromEntries(
      tables.map((table) => [table, reader.query(`SELECT * FROM "${table}"${rowFilter(table)} ORDER BY rowid`).all()]),
    );
  } finally {
    reader.close();
  }
}

/**
 * The same for PostgreSQL: every table of the public schema, each read ordered by its primary key, in one
 * statement (one snapshot of the data). Synchronous, like SQLite's, so tests read it the same way: through psql.
 */
export function postgresSnapshot(url: string): Record<string, unknown[]> {
  const tablesQuery = `SELECT coalesce(json_agg(json_build_object('table', t.relname, 'key', (
      SELECT json_agg(a.attname ORDER BY array_position(i.indkey, a.attnum))
      FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = t.oid AND i.indisprimary)) ORDER BY t.relname), '[]')
    FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND t.relkind = 'r'`;
  const tables = (psqlJson(url, tablesQuery) as { table: string; key: string[] | null }[]).filter(
    ({ table }) => !NOT_DATA.has(table),
  );
  if (tables.length === 0) return {};
  const parts = tables.map(({ table, key }) => {
    const order = (key ?? []).map((column) => `r."${column}"`).join(', ');
    return `'${table}', (SELECT coalesce(json_agg(r${order ? ` ORDER BY ${order}` : ''}), '[]') FROM "${table}" r${rowFilter(table)})`;
  });
  return psqlJson(url, `SELECT json_build_object(${parts.join(', ')})`) as Record<string, unknown[]>;
}

function psqlJson(url: string, query: string): unknown {
  const run = Bun.spawnSync([
    'psql',
    '--no-psqlrc',
    '-X',
    '-q',
    '-A',
    '-t',
    '-v',
    'ON_ERROR_STOP=1',
    '-d',
    url,
    '-c',
    query,
  ]);
  if (run.exitCode !== 0) throw new Error(`psql failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString());
}
