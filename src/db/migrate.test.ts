import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openTestDatabase, testEngine } from '../test/database';
import { openDatabase } from './client';
import { migrateDatabase, readMigrations } from './migrate';

const dir = mkdtempSync(join(tmpdir(), 'classroom-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(`two processes starting at once on an empty database migrate it once (${testEngine})`, async () => {
  const database = await openTestDatabase(dir, { migrate: false });
  // A second server starting at the same moment: its own connection (pool) to the same database.
  const other = openDatabase({ databaseUrl: database.env.DATABASE_URL, databaseFile: join(dir, 'classroom.sqlite') });
  try {
    const tags = readMigrations(testEngine).map((migration) => migration.tag);
    const [first, second] = await Promise.all([migrateDatabase(database.handle), migrateDatabase(other)]);
    expect([...first, ...second].sort()).toEqual([...tags].sort());
    expect(first.length === 0 || second.length === 0).toBe(true);
    const applied = await database.handle.db
      .select({ tag: sql<string>`tag` })
      .from(sql`schema_migrations`)
      .orderBy(sql`tag`);
    expect(applied.map((row) => row.tag)).toEqual([...tags].sort());
    // Starting again applies nothing.
    expect(await migrateDatabase(other)).toEqual([]);
  } finally {
    await other.close();
    await database.close();
  }
});
