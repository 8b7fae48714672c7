import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { type User, users } from '../schema';

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return user;
}

export async function updateUser(
  db: Db,
  id: string,
  values: Partial<Pick<User, 'username' | 'passwordHash' | 'locale'>>,
) {
  const [user] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return user as User;
}

export const administrators = async (db: Db) => db.select().from(users).where(eq(users.isAdmin, true));

export async function recordLogin(db: Db, id: string, now = Date.now()) {
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, id));
}

export async function bumpAvatarVersion(db: Db, id: string) {
  const [user] = await db
    .update(users)
    .set({ avatarVersion: sql`${users.avatarVersion} + 1` })
    .where(eq(users.id, id))
    .returning();
  return user as User;
}

export async function avatarVersionOf(db: Db, id: string) {
  const [row] = await db.select({ avatarVersion: users.avatarVersion }).from(users).where(eq(users.id, id)).limit(1);
  return row?.avatarVersion;
}
