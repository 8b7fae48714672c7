import { afterAll, beforeAll, expect, test } from 'bun:test';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig } from 'drizzle-orm/sqlite-core';
import { ENGINE_SEARCH_OBJECTS } from '../search/index';
import { openScratchDatabase, testEngine } from '../test/database';
import { tablesOf } from './schema';

type Shape = Record<string, { columns: Record<string, { type: string; notNull: boolean }>; indexes: string[] }>;

let database: Awaited<ReturnType<typeof openScratchDatabase>>;
beforeAll(async () => {
  database = await openScratchDatabase();
});
afterAll(() => database.close());

/** What the schema file of the test engine declares. */
function declared(): Shape {
  const shape: Shape = {};
  for (const table of Object.values(tablesOf(testEngine))) {
    const config: any = testEngine === 'postgres' ? pgConfig(table as never) : sqliteConfig(table);
    shape[config.name] = {
      columns: Object.fromEntries(
        config.columns.map((column: any) => [column.name, { type: column.getSQLType(), notNull: column.notNull }]),
      ),
      indexes: config.indexes.map((index: any) => index.config.name).sort(),
    };
  }
  return shape;
}

/** What the migrations made, read back from the database's catalogue. */
async function migrated(): Promise<Shape> {
  const shape: Shape = {};
  const { sqlite, postgres } = database.handle;
  if (postgres) {
    const columns = (await postgres.unsafe(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`,
    )) as { table_name: string; column_name: string; data_type: string; is_nullable: string }[];
    for (const row of columns) {
      shape[row.table_name] ??= { columns: {}, indexes: [] };
      shape[row.table_name].columns[row.column_name] = { type: row.data_type, notNull: row.is_nullable === 'NO' };
    }
    const indexes = (await postgres.unsafe(
      `SELECT t.relname AS tablename, i.relname AS indexname FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND NOT x.indisprimary ORDER BY i.relname`,
    )) as { tablename: string; indexname: string }[];
    for (const row of indexes) {
      // The full-text index over search_entries is the engine's own (a GIN expression index), not the schema's.
      if (ENGINE_SEARCH_OBJECTS.postgresIndexes.includes(row.indexname)) continue;
      shape[row.tablename]?.indexes.push(row.indexname);
    }
  } else if (sqlite) {
    const tables = sqlite
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'",
      )
      .all()
      // The FTS5 table and its shadow tables are SQLite's own, not the schema's.
      .filter(({ name }) => !ENGINE_SEARCH_OBJECTS.sqliteTables(name));
    for (const { name } of tables) {
      const columns = sqlite
        .query<{ name: string; type: string; notnull: number }, []>(`PRAGMA table_info("${name}")`)
        .all();
      const indexes = sqlite
        .query<{ name: string; origin: string }, []>(`PRAGMA index_list("${name}")`)
        .all()
        .filter((index) => index.origin === 'c')
        .map((index) => index.name)
        .sort();
      shape[name] = {
        columns: Object.fromEntries(
          columns.map((column) => [column.name, { type: column.type.toLowerCase(), notNull: column.notnull === 1 }]),
        ),
        indexes,
      };
    }
  }
  return shape;
}

test(`the migrations make exactly the tables, columns and indexes the schema declares (${testEngine})`, async () => {
  const want = declared();
  const have = await migrated();
  expect(Object.keys(have).sort()).toEqual(Object.keys(want).sort());
  for (const table of Object.keys(want)) expect({ table, ...have[table] }).toEqual({ table, ...want[table] });
});
