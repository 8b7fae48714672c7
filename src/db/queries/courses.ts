import { and, desc, eq, sql } from 'drizzle-orm';
import type { TeacherRef } from '../../contract/courses';
import { emit } from '../../events/events';
import { newId } from '../../lib/ids';
import { newInviteCode } from '../../lib/invite-codes';
import type { Db } from '../client';
import { isUniqueViolation } from '../dialect';
import { preparedStatement } from '../prepared';
import {
  type Course,
  classVisits,
  courses,
  type Enrollment,
  enrollments,
  lectures,
  notes,
  notifications,
  users,
} from '../schema';
import { transaction } from '../transaction';

/** Writes with a fresh invite code, trying again in the rare case the code is taken. */
async function withFreshInviteCode<T>(write: (inviteCode: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(newInviteCode());
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

export const createCourse = (db: Db, values: { courseName: string; teacherId: string; semester: number | null }) =>
  withFreshInviteCode(
    async (inviteCode) =>
      (
        await db
          .insert(courses)
          .values({ id: newId(), ...values, inviteCode })
          .returning()
      )[0] as Course,
  );

export const replaceInviteCode = (db: Db, courseId: string) =>
  withFreshInviteCode(
    async (inviteCode) =>
      (await db.update(courses).set({ inviteCode }).where(eq(courses.id, courseId)).returning())[0] as Course,
  );

export async function updateCourse(
  db: Db,
  courseId: string,
  values: { courseName?: string; semester?: number | null; downloadsAllowed?: boolean },
) {
  const [course] = await db.update(courses).set(values).where(eq(courses.id, courseId)).returning();
  return course as Course;
}

export async function teacherRef(db: Db, teacherId: string): Promise<TeacherRef> {
  const [teacher] = await db.select({ username: users.username }).from(users).where(eq(users.id, teacherId)).limit(1);
  return { _id: teacherId, username: teacher?.username ?? '' };
}

/**
 * A class of the list with its teacher's name and `hasNew`: a notification of the user in the class newer than
 * their last visit there (the unread dot), in the same statement (a second query per list cost a quarter of the
 * list's throughput in bench:api).
 */
const courseColumns = () => ({
  course: courses,
  username: users.username,
  hasNew:
    sql<boolean>`exists (select 1 from ${notifications} left join ${classVisits} on ${classVisits.userId} = ${notifications.userId} and ${classVisits.courseId} = ${notifications.courseId} where ${notifications.userId} = ${sql.placeholder('userId')} and ${notifications.courseId} = ${courses.id} and (${classVisits.visitedAt} is null or ${notifications.createdAt} > ${classVisits.visitedAt}))`.mapWith(
      Boolean,
    ),
});

/** The class list (hot: every page asks), prepared once per database. */
const taughtBy = preparedStatement('courses_taught_by', (db: Db) =>
  db
    .select(courseColumns())
    .from(courses)
    .innerJoin(users, eq(users.id, courses.teacherId))
    .where(eq(courses.teacherId, sql.placeholder('userId')))
    .orderBy(desc(courses.createdAt)),
);
const enrolledIn = preparedStatement('courses_enrolled_in', (db: Db) =>
  db
    .select(courseColumns())
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .innerJoin(users, eq(users.id, courses.teacherId))
    .where(eq(enrollments.studentId, sql.placeholder('userId')))
    .orderBy(desc(enrollments.joinedAt)),
);
const notesQuery = preparedStatement('notes_of', (db: Db) =>
  db
    .select()
    .from(notes)
    .where(and(eq(notes.courseId, sql.placeholder('courseId')), eq(notes.userId, sql.placeholder('userId'))))
    .limit(1),
);

/** The classes a user teaches, or is enrolled in, newest first, with the teacher's name. */
export async function coursesOf(db: Db, user: { id: string; role: string }) {
  return (user.role === 'teacher' ? taughtBy : enrolledIn)(db, { userId: user.id });
}

const idsTaughtBy = preparedStatement('course_ids_taught_by', (db: Db) =>
  db
    .select({ id: courses.id })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.teacherId))
    .where(eq(courses.teacherId, sql.placeholder('userId'))),
);
const idsEnrolledIn = preparedStatement('course_ids_enrolled_in', (db: Db) =>
  db
    .select({ id: courses.id })
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .innerJoin(users, eq(users.id, courses.teacherId))
    .where(eq(enrollments.studentId, sql.placeholder('userId'))),
);

/** The ids of `coursesOf` without the teacher's name and unread dot (one `exists` per class): what search needs. */
export async function courseIdsOf(db: Db, user: { id: string; role: string }): Promise<string[]> {
  return (await (user.role === 'teacher' ? idsTaughtBy : idsEnrolledIn)(db, { userId: user.id })).map((row) => row.id);
}

/** Deletes the class (enrollments, notes and lectures go with it by ON DELETE CASCADE) and answers its video ids. */
export async function deleteCourse(db: Db, courseId: string) {
  const videoIds = (
    await db.select({ videoId: lectures.videoId }).from(lectures).where(eq(lectures.courseId, courseId))
  ).map((row) => row.videoId);
  await db.delete(courses).where(eq(courses.id, courseId));
  return videoIds;
}

export async function courseByInviteCode(db: Db, inviteCode: string) {
  const [course] = await db.select().from(courses).where(eq(courses.inviteCode, inviteCode)).limit(1);
  return course;
}

/** Enrolls the student; joining again answers the existing enrollment with `created: false`. */
export async function enroll(db: Db, courseId: string, studentId: string) {
  const [inserted] = await db
    .insert(enrollments)
    .values({ id: newId(), courseId, studentId })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { enrollment: inserted as Enrollment, created: true };
  const [existing] = await db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.courseId, courseId), eq(enrollments.studentId, studentId)))
    .limit(1);
  if (!existing) throw new Error('Enrollment vanished while joining');
  return { enrollment: existing, created: false };
}

/** The students of a class, by name, with when they joined. */
export async function rosterOf(db: Db, courseId: string) {
  return db
    .select({ user: users, joinedAt: enrollments.joinedAt })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .where(eq(enrollments.courseId, courseId))
    .orderBy(users.username);
}

/**
 * Takes a student out of a class (their notes for it go too, and what follows `student-left`: their coverage);
 * answers whether they were in it.
 */
export async function removeStudent(db: Db, courseId: string, studentId: string) {
  return transaction(db, async (tx) => {
    const removed = await tx
      .delete(enrollments)
      .where(and(eq(enrollments.courseId, courseId), eq(enrollments.studentId, studentId)))
      .returning({ id: enrollments.id });
    await tx.delete(notes).where(and(eq(notes.courseId, courseId), eq(notes.userId, studentId)));
    if (removed.length > 0) await emit(tx, { type: 'student-left', courseId, studentId });
    return removed.length > 0;
  });
}

export async function notesOf(db: Db, courseId: string, userId: string) {
  const [row] = await notesQuery(db, { courseId, userId });
  return row;
}

export async function saveNotes(db: Db, courseId: string, userId: string, text: string, now = Date.now()) {
  const row = { courseId, userId, text, updatedAt: now };
  await db
    .insert(notes)
    .values(row)
    .onConflictDoUpdate({ target: [notes.courseId, notes.userId], set: { text, updatedAt: now } });
  return row;
}
