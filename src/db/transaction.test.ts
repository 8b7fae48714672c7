import { afterAll, beforeAll, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { openScratchDatabase, testEngine } from '../test/database';
import type { Db } from './client';
import { forUpdate, isUniqueViolation } from './dialect';
import { users } from './schema';
import { transaction } from './transaction';

// On the test engine (SQLite, or PostgreSQL with TEST_DATABASE_URL): src/test/database.ts.
let database: Awaited<ReturnType<typeof openScratchDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await openScratchDatabase();
  db = database.db;
});
afterAll(() => database.close());

const user = (id: string) => ({
  id,
  username: id,
  email: `${id}@example.test`,
  passwordHash: 'x',
  role: 'student' as const,
});
const versionOf = async (id: string) =>
  (await db.select({ v: users.avatarVersion }).from(users).where(eq(users.id, id)))[0]?.v;

test(`two concurrent read-then-write transactions do not lose an update (${testEngine})`, async () => {
  await db.insert(users).values(user('counter'));
  // Each reads the value, yields (as an await on real I/O would), then writes value + 1.
  const bump = () =>
    transaction(db, async (tx) => {
      const [{ v: before }] = await forUpdate(
        tx,
        tx.select({ v: users.avatarVersion }).from(users).where(eq(users.id, 'counter')),
      );
      await Bun.sleep(5);
      await tx
        .update(users)
        .set({ avatarVersion: before + 1 })
        .where(eq(users.id, 'counter'));
    });
  await Promise.all(Array.from({ length: 20 }, bump));
  expect(await versionOf('counter')).toBe(20);
});

test('a transaction that throws leaves nothing behind, and the next one runs', async () => {
  await expect(
    transaction(db, async (tx) => {
      await tx.insert(users).values(user('ghost'));
      await Bun.sleep(1);
      throw new Error('changed my mind');
    }),
  ).rejects.toThrow('changed my mind');
  expect(await db.$count(users, eq(users.id, 'ghost'))).toBe(0);
  await transaction(db, (tx) => tx.insert(users).values(user('real')));
  expect(await db.$count(users, eq(users.id, 'real'))).toBe(1);
  if (database.handle.sqlite) expect(database.handle.sqlite.inTransaction).toBe(false);
});

test("a plain statement from another request never lands inside someone else's BEGIN … ROLLBACK", async () => {
  let inside!: () => void;
  const begun = new Promise<void>((resolve) => {
    inside = resolve;
  });
  // Request A: a transaction that writes, waits (its statements await), then fails and rolls back.
  const requestA = transaction(db, async (tx) => {
    await tx.insert(users).values(user('rolled-back'));
    inside();
    await Bun.sleep(50);
    throw new Error('request A fails');
  }).catch((error: Error) => error.message);
  await begun;
  // Request B, meanwhile: a plain insert and a plain read on the shared handle, while A is open.
  const requestB = (async () => {
    await db.insert(users).values(user('plain-write'));
    return (await db.select({ id: users.id }).from(users).where(eq(users.id, 'rolled-back'))).length;
  })();
  expect(await requestA).toBe('request A fails');
  // B never saw A's uncommitted row, and B's write survived A's rollback.
  expect(await requestB).toBe(0);
  expect(await db.$count(users, eq(users.id, 'plain-write'))).toBe(1);
  expect(await db.$count(users, eq(users.id, 'rolled-back'))).toBe(0);
});

test('a unique violation is recognised by its code, another error is not', async () => {
  let duplicate: unknown;
  try {
    await db.insert(users).values({ ...user('dup'), email: 'real@example.test' });
  } catch (error) {
    duplicate = error;
  }
  expect(isUniqueViolation(duplicate)).toBe(true);
  let other: unknown;
  try {
    await db.select({ x: sql`1` }).from(sql`no_such_table`);
  } catch (error) {
    other = error;
  }
  expect(other).toBeDefined();
  expect(isUniqueViolation(other)).toBe(false);
});
