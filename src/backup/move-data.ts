/**
 * `classroom migrate-data`: moves a one-box school (SQLite and media in DATA_DIR) to the big setup (PostgreSQL at
 * DATABASE_URL, and the bucket at STORAGE_URL when it is set), with nothing lost: every row of every table and every
 * media file, each checked after the copy. The one-box data is only read; run it with the old server stopped.
 */
import { existsSync } from 'node:fs';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Config } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { migrate, migrateDatabase } from '../db/migrate';
import { selectEngineTables, type Tables, tablesOf } from '../db/schema';
import { rebuildSearchIndex } from '../search/index';
import { createStorage } from '../storage/create-storage';
import { AVATARS_PREFIX, UPLOADS_PREFIX, VIDEOS_PREFIX } from '../storage/keys';
import { createLocalStorage, type Storage } from '../storage/storage';

/** Tables whose rows are not the school's data: workers' heartbeats and rate-limit windows start afresh. */
const TRANSIENT = new Set<keyof Tables>(['workers', 'rateLimits', 'searchEntries']);
/* search_entries is rebuilt on the target instead (its triggers index titles and comments as they are copied). */
/** Rows per INSERT: far under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;
/** The media prefixes; unfinished resumable uploads are not carried (finish or cancel them first). */
const MEDIA_PREFIXES = [AVATARS_PREFIX, UPLOADS_PREFIX, VIDEOS_PREFIX];

export type MoveReport = {
  tables: Record<string, number>;
  files: number;
  bytes: number;
};

/** Tables in an order where every row's foreign keys point at rows already copied. */
function inReferenceOrder(tables: Tables): (keyof Tables)[] {
  const names = (Object.keys(tables) as (keyof Tables)[]).filter((name) => !TRANSIENT.has(name));
  const sqlName = (name: keyof Tables) => getTableConfig(tables[name] as unknown as SQLiteTable).name;
  const byTable = new Map(names.map((name) => [sqlName(name), name]));
  const done = new Set<keyof Tables>();
  const order: (keyof Tables)[] = [];
  const visit = (name: keyof Tables, path: Set<keyof Tables>) => {
    if (done.has(name) || path.has(name)) return;
    path.add(name);
    for (const key of getTableConfig(tables[name] as unknown as SQLiteTable).foreignKeys) {
      const target = byTable.get(getTableConfig(key.reference().foreignTable).name);
      if (target && target !== name) visit(target, path);
    }
    done.add(name);
    order.push(name);
  };
  for (const name of names) visit(name, new Set());
  return order;
}

/**
 * Copies the one-box data into the configured PostgreSQL database (which must be empty: nothing is merged) and,
 * with STORAGE_URL, every media file into the bucket. Answers what it copied; throws, naming what differs, when a
 * check after the copy fails.
 */
export async function moveData(config: Config, say: (line: string) => void = () => {}): Promise<MoveReport> {
  if (!config.databaseUrl) {
    throw new Error('Set DATABASE_URL to the PostgreSQL database to move to (and STORAGE_URL for the media).');
  }
  if (!existsSync(config.databaseFile)) {
    throw new Error(`No one-box database at ${config.databaseFile}: set DATA_DIR to the folder the server used.`);
  }
  // The source opens last, so the process's table bindings stay SQLite's; every query below names its engine's
  // tables explicitly anyway.
  const target = openDatabase(config);
  const source = openDatabase(config.databaseFile);
  try {
    // The one-box database is brought to this build's schema first, as its own server would at start.
    migrate(source.sqlite);
    await migrateDatabase(target);
    const tables = await copyTables(source, target, say);
    // From here on the process works with the target: the search index is made there from what was copied.
    selectEngineTables(target.engine);
    tables.search_entries = await rebuildSearchIndex(target.db);
    const media =
      config.storage.kind === 's3'
        ? await copyMedia(createLocalStorage(config.dataDir), createStorage(config), say)
        : undefined;
    if (!media) say('STORAGE_URL is not set: media stay on this disk in DATA_DIR (every server must then share it).');
    return { tables, files: media?.files ?? 0, bytes: media?.bytes ?? 0 };
  } finally {
    await source.close();
    await target.close();
  }
}

async function copyTables(source: DatabaseHandle, target: DatabaseHandle, say: (line: string) => void) {
  const from = tablesOf('sqlite');
  const to = tablesOf('postgres');
  const order = inReferenceOrder(from);
  for (const name of order) {
    const [row] = await target.db.select().from(to[name]).limit(1);
    if (row) throw new Error(`The PostgreSQL database is not empty (${name} has rows): migrate-data merges nothing.`);
  }
  const counts: Record<string, number> = {};
  await target.db.transaction(async (tx) => {
    for (const name of order) {
      const rows = (await source.db.select().from(from[name])) as Record<string, unknown>[];
      for (let start = 0; start < rows.length; start += BATCH) {
        await tx.insert(to[name] as any).values(rows.slice(start, start + BATCH) as any);
      }
      counts[name] = rows.length;
    }
  });
  // Checked after the commit, through the pool, as the servers will read it.
  for (const name of order) {
    const copied = await target.db.$count(to[name]);
    if (copied !== counts[name]) throw new Error(`${name}: ${counts[name]} rows read, ${copied} in PostgreSQL.`);
    if (counts[name]) say(`${name}: ${counts[name]} rows`);
  }
  return counts;
}

async function copyMedia(from: Storage, to: Storage, say: (line: string) => void) {
  let files = 0;
  let bytes = 0;
  for (const prefix of MEDIA_PREFIXES) {
    for (const file of await from.listFiles(prefix)) {
      const body = await from.get(file.key);
      if (!body || body instanceof ReadableStream) throw new Error(`${file.key} could not be read from the disk.`);
      await to.put(file.key, body);
      const stored = await to.stat(file.key);
      if (stored?.size !== file.size)
        throw new Error(`${file.key}: ${file.size} bytes on disk, ${stored?.size} stored.`);
      files += 1;
      bytes += file.size;
    }
  }
  say(`media: ${files} files, ${(bytes / 1024 ** 2).toFixed(1)} MB copied and checked`);
  return { files, bytes };
}
