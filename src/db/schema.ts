import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const now = sql`(unixepoch('subsec') * 1000)`;

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['teacher', 'student'] }).notNull(),
    emailVerifiedAt: integer('email_verified_at'),
    /** Bumped on password change; tokens carry it, so older tokens stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** 0 = no picture; otherwise bumped on each upload so the picture URL changes. */
    avatarVersion: integer('avatar_version').notNull().default(0),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

/** The one live email code of a user; a new code replaces the old row. */
export const emailCodes = sqliteTable(
  'email_codes',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    sentAt: integer('sent_at').notNull(),
  },
  (table) => [index('email_codes_expires').on(table.expiresAt)],
);

export type User = typeof users.$inferSelect;
