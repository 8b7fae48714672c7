import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from './client';
import { migrate } from './migrate';
import { users } from './schema';
import { isUniqueViolation, transaction } from './transaction';

const dir = mkdtempSync(join(tmpdir(), 'classroom-tx-'));
const { sqlite, db } = openDatabase(join(dir, 'test.sqlite'));
migrate(sqlite);
afterAll(() => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (id: string) => ({
  id,
  username: id,
  email: `${id}@example.test`,
  passwordHash: 'x',
  role: 'student' as const,
});
const versionOf = async (id: string) =>
  (await db.select({ v: users.avatarVersion }).from(users).where(eq(users.id, id)).get())?.v;

test('two concurrent read-then-write transactions take turns: no update is lost', async () => {
  await db.insert(users).values(user('counter'));
  // Each reads the value, yields (as an await on real I/O would), then writes value + 1.
  const bump = () =>
    transaction(db, async (tx) => {
      const before = (await tx.select({ v: users.avatarVersion }).from(users).where(eq(users.id, 'counter')).get())!.v;
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
  expect(sqlite.inTransaction).toBe(false);
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
    await db.run(sql`select * from no_such_table`);
  } catch (error) {
    other = error;
  }
  expect(other).toBeDefined();
  expect(isUniqueViolation(other)).toBe(false);
});
