import { createHash, randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { knownDevices, sessions, users } from '../db/schema';
import { newId } from '../lib/ids';
import { signToken, TOKEN_LIFETIME_SECONDS } from './tokens';

/** SHA-256 of a secret sent in a cookie: the database never holds the cookie's value. */
export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const newKey = () => randomBytes(24).toString('base64url');

/**
 * Starts a session for the user and answers its token (also set as the spec's `token` cookie). `frame`: the cookie
 * must reach us inside another site's iframe (an LTI launch): SameSite=None; Secure; Partitioned. `none`: no
 * cookie, the caller hands the token over itself.
 */
export async function startSession(
  c: Context,
  db: Db,
  secret: Uint8Array,
  userId: string,
  cookie: 'same-site' | 'frame' | 'none' = 'same-site',
) {
  const id = newId();
  await db.insert(sessions).values({ id, userId, expiresAt: Date.now() + TOKEN_LIFETIME_SECONDS * 1000 });
  const token = await signToken(secret, { userId, sessionId: id });
  if (cookie === 'same-site') setTokenCookie(c, token);
  if (cookie === 'frame') {
    setCookie(c, 'token', token, {
      path: '/',
      maxAge: TOKEN_LIFETIME_SECONDS,
      sameSite: 'None',
      secure: true,
      partitioned: true,
    });
  }
  return { id, token };
}

/**
 * The spec's client reads the token from a cookie named `token` that it can read itself (so not HttpOnly),
 * path `/`, 7 days. Setting it from the server too keeps a client that only reads the cookie signed in.
 */
export function setTokenCookie(c: Context, token: string) {
  setCookie(c, 'token', token, {
    path: '/',
    maxAge: TOKEN_LIFETIME_SECONDS,
    sameSite: 'Lax',
    secure: reachedOverHttps(c),
  });
}

/**
 * Secure when the browser reached us over https: directly, or through a proxy that ended TLS and says so in
 * X-Forwarded-Proto (a client that sends the header itself only restricts its own cookie).
 */
export function reachedOverHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

export function clearTokenCookie(c: Context) {
  setCookie(c, 'token', '', { path: '/', maxAge: 0, sameSite: 'Lax' });
}

/** The user of a live session, in one indexed lookup (runs on every authenticated request). */
const sessionUserQuery = preparedStatement('session_user', (db: Db) =>
  db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        sql`${sessions.expiresAt} > ${sql.placeholder('now')}`,
      ),
    )
    .limit(1),
);
export async function sessionUser(db: Db, session: { sessionId: string; userId: string; now: number }) {
  const [row] = await sessionUserQuery(db, session);
  return row;
}

export async function endSession(db: Db, sessionId: string) {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of the user, or every one but `keep`. */
export async function endSessions(db: Db, userId: string, keep?: string) {
  await db
    .delete(sessions)
    .where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
}

/** Remembers this browser (its `device` cookie) as one that signed in to the account. */
export async function rememberDevice(c: Context, db: Db, userId: string, deviceKey: string | undefined) {
  const key = deviceKey ?? newKey();
  if (!deviceKey) {
    setCookie(c, 'device', key, { path: '/api/users', httpOnly: true, sameSite: 'Lax', maxAge: 365 * 24 * 60 * 60 });
  }
  const row = { userId, deviceHash: hashKey(key), lastSeenAt: Date.now() };
  await db
    .insert(knownDevices)
    .values(row)
    .onConflictDoUpdate({
      target: [knownDevices.userId, knownDevices.deviceHash],
      set: { lastSeenAt: row.lastSeenAt },
    });
}

export async function isKnownDevice(db: Db, userId: string, deviceKey: string | undefined) {
  if (!deviceKey) return false;
  const [row] = await db
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, hashKey(deviceKey))))
    .limit(1);
  return row !== undefined;
}
