import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Course, courses, enrollments, type User } from '../db/schema';
import { forbidden, notFound } from '../errors';

export type CourseAccess = { course: Course; isOwner: boolean; isStudent: boolean };

const courseNotFound = () => notFound('course_not_found', 'Class not found.');

/**
 * The course if the user may read it (its teacher, or an enrolled student). Anyone else gets the same
 * 404 as for a course that does not exist, so outsiders learn nothing about which ids are real.
 */
export function readableCourse(db: Db, user: User, courseId: string): CourseAccess {
  const course = db.select().from(courses).where(eq(courses.id, courseId)).get();
  if (!course) throw courseNotFound();
  const isOwner = course.teacherId === user.id;
  const isStudent =
    !isOwner &&
    user.role === 'student' &&
    db
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(and(eq(enrollments.courseId, courseId), eq(enrollments.studentId, user.id)))
      .get() !== undefined;
  if (!isOwner && !isStudent) throw courseNotFound();
  return { course, isOwner, isStudent };
}

/** The course if the user is its teacher; an enrolled student gets 403, anyone else 404. */
export function ownedCourse(db: Db, user: User, courseId: string): Course {
  const access = readableCourse(db, user, courseId);
  if (!access.isOwner) throw forbidden('Only the teacher of this class can do that.');
  return access.course;
}
