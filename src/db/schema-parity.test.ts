import { expect, test } from 'bun:test';
import { getTableName } from 'drizzle-orm';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig } from 'drizzle-orm/sqlite-core';
import { sqliteTables } from './schema';
import { pgTables } from './schema.pg';

/** What a column must be on PostgreSQL for each SQLite declaration (times in ms are bigint, flags boolean). */
const twinTypes: Record<string, string[]> = {
  'SQLiteText:string': ['PgText:string'],
  'SQLiteInteger:number': ['PgInteger:number', 'PgBigInt53:number'],
  'SQLiteBoolean:boolean': ['PgBoolean:boolean'],
  'SQLiteReal:number': ['PgDoublePrecision:number'],
};

type Described = {
  columns: Record<string, { type: string; notNull: boolean; hasDefault: boolean; primary: boolean; enum?: string[] }>;
  primaryKey: string[];
  indexes: Record<string, { columns: string[]; unique: boolean }>;
  foreignKeys: string[];
};

function describe(config: any): Described {
  const columns: Described['columns'] = {};
  for (const column of config.columns as any[]) {
    columns[column.name] = {
      type: `${column.columnType}:${column.dataType}`,
      notNull: column.notNull,
      hasDefault: column.hasDefault,
      primary: column.primary,
      enum: column.enumValues,
    };
  }
  const primaryKey = config.primaryKeys.flatMap((key: any) => key.columns.map((column: any) => column.name));
  const indexes: Described['indexes'] = {};
  for (const index of config.indexes as any[]) {
    indexes[index.config.name] = {
      columns: index.config.columns.map((column: any) => column.name),
      unique: Boolean(index.config.unique),
    };
  }
  const foreignKeys = (config.foreignKeys as any[])
    .map((key) => {
      const reference = key.reference();
      const names = (columns: any[]) => columns.map((column) => column.name).join(',');
      return `${names(reference.columns)} -> ${getTableName(reference.foreignTable)}(${names(reference.foreignColumns)}) on delete ${key.onDelete ?? 'no action'}`;
    })
    .sort();
  return { columns, primaryKey, indexes, foreignKeys };
}

test('both engines have the same tables', () => {
  const names = (tables: object) => Object.keys(tables).sort();
  expect(names(pgTables)).toEqual(names(sqliteTables));
  for (const key of Object.keys(sqliteTables) as (keyof typeof sqliteTables)[]) {
    expect(pgConfig(pgTables[key]).name).toBe(sqliteConfig(sqliteTables[key]).name);
  }
});

for (const key of Object.keys(sqliteTables) as (keyof typeof sqliteTables)[]) {
  test(`${key}: the same columns, keys, indexes and foreign keys on both engines`, () => {
    const lite = describe(sqliteConfig(sqliteTables[key]));
    const pg = describe(pgConfig(pgTables[key]));
    expect(Object.keys(pg.columns)).toEqual(Object.keys(lite.columns));
    for (const [name, column] of Object.entries(lite.columns)) {
      const twin = pg.columns[name];
      expect({ name, ...twin, type: undefined }).toEqual({ name, ...column, type: undefined });
      expect({ name, allowed: twinTypes[column.type] }).toEqual({
        name,
        allowed: expect.arrayContaining([twin.type]),
      });
    }
    expect(pg.primaryKey).toEqual(lite.primaryKey);
    expect(pg.indexes).toEqual(lite.indexes);
    expect(pg.foreignKeys).toEqual(lite.foreignKeys);
  });
}

test('times in ms are bigint on PostgreSQL (an int4 ends in 2038 in seconds, and in January 1970 in ms)', () => {
  for (const table of Object.values(pgTables)) {
    for (const column of pgConfig(table).columns) {
      if (/(_at|_until|_after|_ms)$/.test(column.name)) {
        expect({ column: column.name, type: column.columnType }).toEqual({ column: column.name, type: 'PgBigInt53' });
      }
    }
  }
});
