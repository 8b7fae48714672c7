import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

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

export const courses = sqliteTable(
  'courses',
  {
    id: text('id').primaryKey(),
    courseName: text('course_name').notNull(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    semester: integer('semester'),
    /** Stored upper-case; matched without regard to case. */
    inviteCode: text('invite_code').notNull(),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('courses_invite_code_unique').on(table.inviteCode),
    index('courses_teacher').on(table.teacherId),
  ],
);

export const enrollments = sqliteTable(
  'enrollments',
  {
    id: text('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: integer('joined_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('enrollments_course_student_unique').on(table.courseId, table.studentId),
    index('enrollments_student').on(table.studentId),
  ],
);

/** One private notes text per user and course (students, and the teacher for their own class). */
export const notes = sqliteTable(
  'notes',
  {
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] })],
);

export type Course = typeof courses.$inferSelect;
