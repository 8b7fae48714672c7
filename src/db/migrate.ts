import type { Database } from 'bun:sqlite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getEmbedded } from '../lib/embedded';

type Migration = { tag: string; sql: string };

const defaultFolder = join(import.meta.dir, '..', '..', 'migrations');

/** The SQL files drizzle-kit generated, in journal order (from the binary when compiled). */
export function readMigrations(folder = defaultFolder): Migration[] {
  const embedded = getEmbedded();
  if (embedded) return embedded.migrations;
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map(({ tag }) => ({ tag, sql: readFileSync(join(folder, `${tag}.sql`), 'utf8') }));
}

/** Applies every migration not yet applied, each in its own transaction. Returns the tags applied. */
export function migrate(sqlite: Database, migrations = readMigrations()): string[] {
  sqlite.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (tag TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    sqlite
      .query<{ tag: string }, []>('SELECT tag FROM schema_migrations')
      .all()
      .map((row) => row.tag),
  );
  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.tag)) continue;
    const statements = migration.sql
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter(Boolean);
    sqlite.transaction(() => {
      for (const statement of statements) sqlite.exec(statement);
      sqlite.query('INSERT INTO schema_migrations (tag, applied_at) VALUES (?, ?)').run(migration.tag, Date.now());
    })();
    done.push(migration.tag);
  }
  return done;
}
