import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { ownedCourse, readableCourse } from '../auth/course-access';
import { requireRole, requireUser } from '../auth/middleware';
import type { Db } from '../db/client';
import { type Course, courses, enrollments, lectures, users } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden } from '../errors';
import { newId } from '../ids';
import { newInviteCode } from '../invite-codes';
import { idParam, idSchema, validate } from '../validation';

const courseName = z
  .string({ error: 'Class name is required.' })
  .trim()
  .min(1, 'Class name is required.')
  .max(120, 'Class name must be at most 120 characters.');
const semester = z.coerce
  .number({ error: 'Semester must be a number.' })
  .int('Semester must be a whole number.')
  .min(1, 'Semester must be from 1 to 12.')
  .max(12, 'Semester must be from 1 to 12.');
const optionalSemester = z.preprocess((value) => (value === '' ? null : value), semester.nullish());

const createBody = z.object({ courseName, teacherId: idSchema.optional(), semester: optionalSemester });
const updateBody = z.object({ courseName, semester: optionalSemester });

type TeacherRef = { _id: string; username: string };

/** A class as the client reads it: `classCode` is the invite code under the spec's other name. */
export function toCourseJson(course: Course, teacher: TeacherRef | string) {
  return {
    _id: course.id,
    id: course.id,
    courseName: course.courseName,
    semester: course.semester,
    inviteCode: course.inviteCode,
    classCode: course.inviteCode,
    teacherId: teacher,
    createdAt: new Date(course.createdAt).toISOString(),
  };
}

function teacherRef(db: Db, teacherId: string): TeacherRef {
  const teacher = db.select({ username: users.username }).from(users).where(eq(users.id, teacherId)).get();
  return { _id: teacherId, username: teacher?.username ?? '' };
}

/** Inserts with a fresh invite code, trying again in the rare case the code is taken. */
function insertWithInviteCode<T>(insert: (inviteCode: string) => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return insert(newInviteCode());
    } catch (error) {
      const taken = String((error as Error).message).includes('courses.invite_code');
      if (!taken || attempt >= 5) throw error;
    }
  }
}

export function coursesRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))

    .get('/', (c) => {
      const user = c.get('user');
      const rows =
        user.role === 'teacher'
          ? db
              .select({ course: courses, username: users.username })
              .from(courses)
              .innerJoin(users, eq(users.id, courses.teacherId))
              .where(eq(courses.teacherId, user.id))
              .orderBy(desc(courses.createdAt))
              .all()
          : db
              .select({ course: courses, username: users.username })
              .from(enrollments)
              .innerJoin(courses, eq(courses.id, enrollments.courseId))
              .innerJoin(users, eq(users.id, courses.teacherId))
              .where(eq(enrollments.studentId, user.id))
              .orderBy(desc(enrollments.joinedAt))
              .all();
      return c.json(rows.map(({ course, username }) => toCourseJson(course, { _id: course.teacherId, username })));
    })

    .post('/', requireRole('teacher'), validate('json', createBody), (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      if (body.teacherId && body.teacherId !== user.id) throw forbidden('You can only create classes for yourself.');
      const course = insertWithInviteCode((inviteCode) =>
        db
          .insert(courses)
          .values({
            id: newId(),
            courseName: body.courseName,
            teacherId: user.id,
            semester: body.semester ?? null,
            inviteCode,
          })
          .returning()
          .get(),
      );
      return c.json(toCourseJson(course, user.id), 201);
    })

    .get('/:id', validate('param', idParam), (c) => {
      const { course } = readableCourse(db, c.get('user'), c.req.valid('param').id);
      return c.json(toCourseJson(course, teacherRef(db, course.teacherId)));
    })

    .patch('/:id', validate('param', idParam), validate('json', updateBody), (c) => {
      const course = ownedCourse(db, c.get('user'), c.req.valid('param').id);
      const body = c.req.valid('json');
      const updated = db
        .update(courses)
        .set({ courseName: body.courseName, ...(body.semester !== undefined ? { semester: body.semester } : {}) })
        .where(eq(courses.id, course.id))
        .returning()
        .get();
      return c.json(toCourseJson(updated, teacherRef(db, updated.teacherId)));
    })

    .delete('/:id', validate('param', idParam), (c) => {
      const course = ownedCourse(db, c.get('user'), c.req.valid('param').id);
      const videoIds = db
        .select({ videoId: lectures.videoId })
        .from(lectures)
        .where(eq(lectures.courseId, course.id))
        .all()
        .map((row) => row.videoId);
      // Enrollments, notes and lectures go with it through ON DELETE CASCADE, in one statement.
      db.delete(courses).where(eq(courses.id, course.id)).run();
      // Then, with the delete committed, the videos and their files.
      deps.media.deleteUnreferenced(videoIds);
      return c.json({ message: 'Class deleted', _id: course.id });
    })

    .post('/:id/invite-code', validate('param', idParam), (c) => {
      const course = ownedCourse(db, c.get('user'), c.req.valid('param').id);
      const updated = insertWithInviteCode((inviteCode) =>
        db.update(courses).set({ inviteCode }).where(eq(courses.id, course.id)).returning().get(),
      );
      return c.json(toCourseJson(updated, teacherRef(db, updated.teacherId)));
    });
}
