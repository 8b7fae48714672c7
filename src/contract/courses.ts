import { z } from 'zod';
import type { Course, Enrollment, User } from '../db/schema';
import { isoTime, publicUserJson, toPublicUser } from './users';

export const teacherRefJson = z.object({ _id: z.string(), username: z.string() });
export type TeacherRef = z.infer<typeof teacherRefJson>;

/** A class as the client reads it: `classCode` is the invite code under the spec's other name. */
export const courseJson = z.object({
  _id: z.string(),
  id: z.string(),
  courseName: z.string(),
  semester: z.number().int().nullable(),
  inviteCode: z.string(),
  classCode: z.string().describe('The invite code under the spec’s other name.'),
  /** The teacher's id, or `{ _id, username }` where the answer names them. */
  teacherId: z.union([z.string(), teacherRefJson]),
  createdAt: isoTime,
  /** Whether students may save its lectures for offline viewing (docs/offline.md); its teacher always may. */
  downloadsAllowed: z.boolean(),
  /** The class list only: something new in the class since the user last opened it. */
  hasNew: z.boolean().optional().describe('The class list only: something new since the user last opened it.'),
});
/** `hasNew` (the class list only): something new in the class since the user last opened it. */
export type CourseJson = z.infer<typeof courseJson>;

export function toCourseJson(course: Course, teacher: TeacherRef | string): CourseJson {
  return {
    _id: course.id,
    id: course.id,
    courseName: course.courseName,
    semester: course.semester,
    inviteCode: course.inviteCode,
    classCode: course.inviteCode,
    teacherId: teacher,
    createdAt: new Date(course.createdAt).toISOString(),
    downloadsAllowed: course.downloadsAllowed,
  };
}

/** What joining a class answers; a teacher scanning their own code gets the class without an enrollment. */
export const enrollmentJson = z.object({
  _id: z.string().optional(),
  studentId: z.string().optional(),
  courseId: z.string(),
  classCode: z.string(),
  joinedAt: isoTime.optional(),
  course: courseJson,
});
export type EnrollmentJson = z.infer<typeof enrollmentJson>;

export function toEnrollmentJson(
  course: CourseJson,
  enrollment?: Pick<Enrollment, 'id' | 'studentId' | 'joinedAt'>,
): EnrollmentJson {
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
export const notesJson = z.object({ notes: z.string(), updatedAt: isoTime.nullable() });
export type NotesJson = z.infer<typeof notesJson>;
export const notesSavedJson = notesJson.extend({ message: z.string() });

export function toNotesJson(row: { text: string; updatedAt: number } | undefined): NotesJson {
  return { notes: row?.text ?? '', updatedAt: row ? new Date(row.updatedAt).toISOString() : null };
}

/** A student as the teacher's roster shows them. */
export const rosterEntryJson = publicUserJson.extend({ email: z.string(), joinedAt: isoTime });
export type RosterEntryJson = z.infer<typeof rosterEntryJson>;

export function toRosterEntryJson(user: User, joinedAt: number): RosterEntryJson {
  return { ...toPublicUser(user), email: user.email, joinedAt: new Date(joinedAt).toISOString() };
}

/** `GET /api/invites/{code}`: what an invite link shows before anyone signs in. */
export const invitePreviewJson = z.object({ courseName: z.string(), teacherName: z.string().nullable() });
