import { eq, sql } from 'drizzle-orm';
import { newId } from '../../lib/ids';
import type { Db } from '../client';
import { type User, users } from '../schema';

export const findUserByEmail = async (db: Db, email: string) =>
  await db.select().from(users).where(eq(users.email, email)).get();

/** Creates the account, or gives an unverified one with this address the new name, password and role. */
export async function upsertUnverifiedUser(
  db: Db,
  existing: User | undefined,
  values: { username: string; email: string; passwordHash: string; role: User['role'] },
): Promise<User> {
  if (existing) {
    const { username, passwordHash, role } = values;
    return (await db
      .update(users)
      .set({ username, passwordHash, role })
      .where(eq(users.id, existing.id))
      .returning()
      .get()) as User;
  }
  return (await db
    .insert(users)
    .values({ id: newId(), ...values })
    .returning()
    .get()) as User;
}

export async function updateUser(db: Db, id: string, values: Partial<Pick<User, 'username' | 'emailVerifiedAt'>>) {
  return (await db.update(users).set(values).where(eq(users.id, id)).returning().get()) as User;
}

/** A new password makes every older token invalid (the version they carry no longer matches). */
export async function setPassword(db: Db, id: string, passwordHash: string) {
  return (await db
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, id))
    .returning()
    .get()) as User;
}

export async function bumpAvatarVersion(db: Db, id: string) {
  return (await db
    .update(users)
    .set({ avatarVersion: sql`${users.avatarVersion} + 1` })
    .where(eq(users.id, id))
    .returning()
    .get()) as User;
}

export async function deleteUser(db: Db, id: string) {
  await db.delete(users).where(eq(users.id, id));
}

export const avatarVersionOf = async (db: Db, id: string) =>
  (await db.select({ avatarVersion: users.avatarVersion }).from(users).where(eq(users.id, id)).get())?.avatarVersion;
