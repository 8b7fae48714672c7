import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { runSql } from '../search/sql';
import { openTestDatabase, testEngine } from '../test/database';
import { openDatabase } from './client';
import { migrateDatabase, readMigrations } from './migrate';
import { courses, jobs, lectures, searchEntries } from './schema';

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

test(`events_told_once: lectures told by a notify-lecture job stay told; titles stop coming from triggers (${testEngine})`, async () => {
  const database = await openTestDatabase(mkdtempSync(join(dir, 'told-')), { migrate: false });
  const { db } = database.handle;
  try {
    const tags = readMigrations(testEngine).map((migration) => migration.tag);
    const mine = tags.findIndex((tag) => tag.endsWith('_events_told_once'));
    await migrateDatabase(database.handle, tags[mine - 1]);
    // Raw SQL: the schema of today has columns (users.locale) this older database does not have yet.
    await runSql(
      db,
      sql`insert into users (id, username, email, password_hash, role) values ('u1', 'Tess', 't@example.test', 'x', 'teacher')`,
    );
    await db.insert(courses).values({ id: 'c1', courseName: 'Optics', teacherId: 'u1', inviteCode: 'ABCDEF' });
    for (const id of ['told', 'untold']) {
      await runSql(
        db,
        sql`insert into lectures (id, course_id, name_of_topic) values (${id}, 'c1', ${`Lecture ${id}`})`,
      );
    }
    await db.insert(jobs).values({
      id: 'notify-lecture-told',
      type: 'notify',
      payload: '{}',
      state: 'done',
      runAfter: 0,
      createdAt: 1_700_000_000_000,
    });
    expect(await migrateDatabase(database.handle)).toEqual(tags.slice(mine));
    const rows = await db
      .select({ id: lectures.id, toldAt: lectures.studentsToldAt })
      .from(lectures)
      .orderBy(lectures.id);
    expect(rows).toEqual([
      { id: 'told', toldAt: 1_700_000_000_000 },
      { id: 'untold', toldAt: null },
    ]);
    // A lecture written straight to the table is no longer indexed by a trigger (listeners index every kind).
    const before = (await db.select().from(searchEntries)).length;
    await runSql(db, sql`insert into lectures (id, course_id, name_of_topic) values ('raw', 'c1', 'Raw')`);
    expect(await db.select().from(searchEntries)).toHaveLength(before);
  } finally {
    await database.close();
  }
});
