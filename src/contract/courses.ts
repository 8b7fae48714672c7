import type { Course, Enrollment, User } from '../db/schema';
import { toPublicUser } from './users';

export type TeacherRef = { _id: string; username: string };

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

/** What joining a class answers; a teacher scanning their own code gets the class without an enrollment. */
export function toEnrollmentJson(
  course: ReturnType<typeof toCourseJson>,
  enrollment?: Pick<Enrollment, 'id' | 'studentId' | 'joinedAt'>,
) {
  return {
    _id: enrollment?.id,
    studentId: enrollment?.studentId,
    courseId: course._id,
    classCode: course.classCode,
    joinedAt: enrollment ? new Date(enrollment.joinedAt).toISOString() : undefined,
    course,
  };
}

/** A user's private notes for a class. */
export function toNotesJson(row: { text: string; updatedAt: number } | undefined) {
  return { notes: row?.text ?? '', updatedAt: row ? new Date(row.updatedAt).toISOString() : null };
}

/** A student as the teacher's roster shows them. */
export function toRosterEntryJson(user: User, joinedAt: number) {
  return { ...toPublicUser(user), email: user.email, joinedAt: new Date(joinedAt).toISOString() };
}

/** `hasNew` (the class list only): something new in the class since the user last opened it. */
export type CourseJson = ReturnType<typeof toCourseJson> & { hasNew?: boolean };
export type RosterEntryJson = ReturnType<typeof toRosterEntryJson>;
export type EnrollmentJson = ReturnType<typeof toEnrollmentJson>;
export type NotesJson = ReturnType<typeof toNotesJson>;

export const teacherName = (course: CourseJson) =>
  typeof course.teacherId === 'string' ? '' : course.teacherId.username;
export const teacherIdOf = (course: CourseJson) =>
  typeof course.teacherId === 'string' ? course.teacherId : course.teacherId._id;
