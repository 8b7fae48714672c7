import { z } from 'zod';
import type { Course, Enrollment, User } from '../db/schema';
import { LIMITS, normalizeInviteCode } from './limits';
import { idSchema, plainText, withoutControl } from './text';
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

// What the class and enrollment routes take: the web's forms check the same schemas before sending.

export const courseName = plainText({
  required: 'fields.classNameRequired',
  tooShort: 'fields.classNameRequired',
  tooLong: 'fields.classNameTooLong',
  min: 1,
  max: LIMITS.courseNameMax,
  hidden: 'fields.classNameHidden',
});
const semesterRange = 'fields.semesterRange';
// A number, or digits in a string (an HTML form sends text); never a list or true, which coercion would accept.
export const semester = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,3}(\.\d+)?$/)
        .transform(Number),
    ],
    { error: 'fields.semesterNumber' },
  )
  .pipe(
    z
      .number()
      .int('fields.semesterWhole')
      .min(LIMITS.semesterMin, semesterRange)
      .max(LIMITS.semesterMax, semesterRange),
  );
export const optionalSemester = z.preprocess((value) => (value === '' ? null : value), semester.nullish());

export const createCourseBody = z.object({ courseName, teacherId: idSchema.optional(), semester: optionalSemester });
// A name is needed unless the change is only the downloads switch (docs/offline.md).
export const updateCourseBody = z
  .object({
    courseName: courseName.optional(),
    semester: optionalSemester,
    downloadsAllowed: z.boolean({ error: 'fields.downloadsAllowedBoolean' }).optional(),
  })
  .superRefine((body, context) => {
    if (body.courseName === undefined && body.downloadsAllowed === undefined) {
      context.addIssue({ code: 'custom', path: ['courseName'], message: 'fields.classNameRequired' });
    }
  });

/** A class code or invite code as typed: its messages (catalogue keys) name which. */
export const codeText = (messages: { required: string; hidden: string; tooLong: string }) =>
  withoutControl(z.string({ error: messages.required }), messages.hidden)
    .trim()
    .min(1, messages.required)
    .max(LIMITS.inviteCodeInputMax, messages.tooLong)
    .transform(normalizeInviteCode);

const classCodeText = codeText({
  required: 'fields.classCodeRequired',
  hidden: 'fields.classCodeHidden',
  tooLong: 'fields.classCodeTooLong',
});
const inviteCodeText = codeText({
  required: 'fields.inviteCodeRequired',
  hidden: 'fields.inviteCodeHidden',
  tooLong: 'fields.inviteCodeTooLong',
});
export const enrollBody = z.object({ studentId: idSchema, classCode: classCodeText });
export const joinBody = z.object({ inviteCode: inviteCodeText });
export const notesBody = z.object({
  notes: withoutControl(z.string({ error: 'fields.notesText' }), 'fields.notesHidden', true).max(
    LIMITS.notesMax,
    'fields.notesTooLong',
  ),
});
export const inviteCodeParam = z.object({ code: inviteCodeText });
