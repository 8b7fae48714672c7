import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { readableCourse } from '../auth/course-access';
import { requireUser } from '../auth/middleware';
import { courses, enrollments, notes, type User, users } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { normalizeInviteCode } from '../invite-codes';
import { idSchema, validate } from '../validation';
import { toCourseJson } from './courses';

export const MAX_NOTES_LENGTH = 100_000;

const codeText = (what: string) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(32, `${what} is too long.`)
    .transform(normalizeInviteCode);

const enrollBody = z.object({ studentId: idSchema, classCode: codeText('Class code') });
const joinBody = z.object({ inviteCode: codeText('Invite code') });
const courseParam = z.object({ courseId: idSchema });
const notesBody = z.object({
  notes: z
    .string({ error: 'Notes must be text.' })
    .max(MAX_NOTES_LENGTH, `Notes can be at most ${MAX_NOTES_LENGTH.toLocaleString('en')} characters.`),
});

export function enrollmentsRoutes(deps: AppDeps) {
  const { db } = deps;

  /** Enrolls the student in the class with this code; joining twice answers the same enrollment. */
  function join(user: User, code: string) {
    const course = db.select().from(courses).where(eq(courses.inviteCode, code)).get();
    if (!course) throw notFound('class_code_not_found', 'No class has this code. Please check it and try again.');
    const teacher = db.select({ username: users.username }).from(users).where(eq(users.id, course.teacherId)).get();
    const courseJson = toCourseJson(course, { _id: course.teacherId, username: teacher?.username ?? '' });
    if (course.teacherId === user.id) {
      // The teacher scanning their own code lands in their class rather than on an error.
      return { created: false, body: { courseId: course.id, classCode: course.inviteCode, course: courseJson } };
    }
    if (user.role !== 'student') throw forbidden('Only students can join classes.');
    const inserted = db
      .insert(enrollments)
      .values({ id: newId(), courseId: course.id, studentId: user.id })
      .onConflictDoNothing()
      .returning()
      .get();
    const enrollment =
      inserted ??
      db
        .select()
        .from(enrollments)
        .where(and(eq(enrollments.courseId, course.id), eq(enrollments.studentId, user.id)))
        .get();
    if (!enrollment) throw new Error('Enrollment vanished while joining');
    return {
      created: inserted !== undefined,
      body: {
        _id: enrollment.id,
        studentId: user.id,
        courseId: course.id,
        classCode: course.inviteCode,
        joinedAt: new Date(enrollment.joinedAt).toISOString(),
        course: courseJson,
      },
    };
  }

  return new Hono<AppEnv>()
    .use(requireUser(deps))

    .post('/', validate('json', enrollBody), (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      if (body.studentId !== user.id) throw forbidden('You can only enroll yourself.');
      const result = join(user, body.classCode);
      return c.json(result.body, result.created ? 201 : 200);
    })

    .post('/join', validate('json', joinBody), (c) => {
      const result = join(c.get('user'), c.req.valid('json').inviteCode);
      return c.json(result.body, result.created ? 201 : 200);
    })

    .get('/:courseId/notes', validate('param', courseParam), (c) => {
      const user = c.get('user');
      const { course } = readableCourse(db, user, c.req.valid('param').courseId);
      const row = db
        .select()
        .from(notes)
        .where(and(eq(notes.courseId, course.id), eq(notes.userId, user.id)))
        .get();
      return c.json({ notes: row?.text ?? '', updatedAt: row ? new Date(row.updatedAt).toISOString() : null });
    })

    .patch('/:courseId/notes', validate('param', courseParam), validate('json', notesBody), (c) => {
      const user = c.get('user');
      const { course } = readableCourse(db, user, c.req.valid('param').courseId);
      const row = { courseId: course.id, userId: user.id, text: c.req.valid('json').notes, updatedAt: Date.now() };
      db.insert(notes)
        .values(row)
        .onConflictDoUpdate({
          target: [notes.courseId, notes.userId],
          set: { text: row.text, updatedAt: row.updatedAt },
        })
        .run();
      return c.json({
        notes: row.text,
        updatedAt: new Date(row.updatedAt).toISOString(),
        message: 'Note saved successfully',
      });
    });
}
