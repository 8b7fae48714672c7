import { sql } from 'drizzle-orm';
import { type Config, loadConfig } from './config';
import type { Db } from './db/client';
import { type DatabaseHandle, openDatabase } from './db/client';
import { engineOf } from './db/dialect';
import { migrateDatabase, readMigrations } from './db/migrate';
import { createLogger, type Logger } from './lib/log';
import { VERSION } from './lib/version';
import { indexMissingCaptions } from './search/index';
import { createStorage } from './storage/create-storage';
import type { Storage } from './storage/storage';

/**
 * What a process does, from its first argument: one binary and one image for every part of a cluster.
 * - `all` (or none): HTTP and jobs in one process, migrating at start: the one-box install, as always.
 * - `serve`: HTTP only; never runs a job or ffmpeg; refuses to start while migrations are pending.
 * - `worker`: jobs only (no HTTP); refuses to start while migrations are pending.
 * - `migrate`: applies the migrations (under a lock) and exits.
 */
export type Role = 'all' | 'serve' | 'worker' | 'migrate';
export const ROLES: readonly Role[] = ['all', 'serve', 'worker', 'migrate'];

/** A process that must not start, with the one line that says why and what to do. */
export class StartupError extends Error {}

export type Booted = {
  role: Role;
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  db: Db;
  storage: Storage;
};

/** The migrations this build has that the database has not applied yet (all of them on a new database). */
export async function pendingMigrations(
  db: Db,
  known = readMigrations(engineOf(db)).map((migration) => migration.tag),
): Promise<string[]> {
  let applied: Set<string>;
  try {
    const rows = await db.select({ tag: sql<string>`tag` }).from(sql`schema_migrations`);
    applied = new Set(rows.map((row) => row.tag));
  } catch {
    applied = new Set(); // no table yet: nothing was ever applied
  }
  return known.filter((tag) => !applied.has(tag));
}

/**
 * The start every role shares (`main.ts` for each role; `src/worker.ts` is `classroom worker`): settings, log,
 * database, schema, storage. `all` and `migrate` apply pending migrations; `serve` and `worker` refuse to start
 * while any is pending, naming `classroom migrate`.
 */
export async function bootstrap(role: Role, env: Record<string, string | undefined>): Promise<Booted> {
  const config = loadConfig(env);
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  log.info({ version: VERSION, role, dataDir: config.dataDir }, `Classroom ${VERSION} starting (${role})`);
  const database = openDatabase(config);
  const { db } = database;
  try {
    if (role === 'all' || role === 'migrate') {
      const applied = await migrateDatabase(database);
      if (applied.length) log.info({ migrations: applied }, `Applied migrations: ${applied.join(', ')}`);
      // Captions saved before search existed are cut into cues once, right after the index is made.
      if (applied.some((tag) => tag.endsWith('_search_index'))) {
        const indexed = await indexMissingCaptions(db);
        if (indexed) log.info({ captions: indexed }, `Search: indexed ${indexed} existing caption file(s)`);
      }
    } else {
      const pending = await pendingMigrations(db);
      if (pending.length) {
        throw new StartupError(
          `The database is not up to date (${pending.length} migration(s) pending, up to ${pending.at(-1)}): run \`classroom migrate\` first.`,
        );
      }
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return { role, config, log, database, db, storage: createStorage(config) };
}
