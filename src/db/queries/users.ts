import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { type User, users } from '../schema';

export const findUserByEmail = async (db: Db, email: string) =>
  await db.select().from(users).where(eq(users.email, email)).get();

export async function updateUser(db: Db, id: string, values: Partial<Pick<User, 'username' | 'passwordHash'>>) {
  return (await db.update(users).set(values).where(eq(users.id, id)).returning().get()) as User;
}

export const administrators = async (db: Db) => db.select().from(users).where(eq(users.isAdmin, true));

export async function recordLogin(db: Db, id: string, now = Date.now()) {
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, id));
}

export async function bumpAvatarVersion(db: Db, id: string) {
  return (await db
    .update(users)
    .set({ avatarVersion: sql`${users.avatarVersion} + 1` })
    .where(eq(users.id, id))
    .returning()
    .get()) as User;
}

export const avatarVersionOf = async (db: Db, id: string) =>
  (await db.select({ avatarVersion: users.avatarVersion }).from(users).where(eq(users.id, id)).get())?.avatarVersion;
