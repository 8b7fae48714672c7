import { and, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { emit } from '../../events/events';
import type { Db } from '../client';
import { containsIgnoringCase, greatest } from '../dialect';
import { courses, enrollments, lectures, likes, type User, users, videos } from '../schema';
import { transaction } from '../transaction';

const SEARCH_LIMIT = 100;

/** Users matching `q` in name or address, newest first, with how many classes they teach or attend. */
export async function searchUsers(db: Db, q: string) {
  const rows = await db
    .select()
    .from(users)
    .where(q ? or(containsIgnoringCase(db, users.username, q), containsIgnoringCase(db, users.email, q)) : undefined)
    .orderBy(desc(users.createdAt))
    .limit(SEARCH_LIMIT);
  const ids = rows.map((row) => row.id);
  const taught = ids.length
    ? await db
        .select({ id: courses.teacherId, n: count() })
        .from(courses)
        .where(inArray(courses.teacherId, ids))
        .groupBy(courses.teacherId)
    : [];
  const attended = ids.length
    ? await db
        .select({ id: enrollments.studentId, n: count() })
        .from(enrollments)
        .where(inArray(enrollments.studentId, ids))
        .groupBy(enrollments.studentId)
    : [];
  const classesOf = new Map([...taught, ...attended].map((row) => [row.id, row.n]));
  return rows.map((user) => ({ user, classes: classesOf.get(user.id) ?? 0 }));
}

export async function userById(db: Db, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

export async function setStanding(
  db: Db,
  id: string,
  values: Partial<Pick<User, 'teacherStatus' | 'disabledAt' | 'isAdmin'>>,
) {
  if (Object.keys(values).length === 0) return (await userById(db, id)) as User;
  const [user] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return user as User;
}

/**
 * Approves or declines a teacher, in the caller's transaction. Answers whether the status changed: the one
 * condition in the UPDATE means two administrators pressing Approve at once make one change (and one mail), not two.
 */
export async function decideTeacher(db: Db, id: string, status: 'approved' | 'declined') {
  const changed = await db
    .update(users)
    .set({ teacherStatus: status })
    .where(
      and(
        eq(users.id, id),
        eq(users.role, 'teacher'),
        or(isNull(users.teacherStatus), ne(users.teacherStatus, status)),
      ),
    )
    .returning({ id: users.id });
  if (changed.length > 0) await emit(db, { type: 'teacher-decided', teacherId: id, status });
  return changed.length > 0;
}

/** How many teachers wait for approval (the Admin badge): one count on the users table. */
export async function countWaitingTeachers(db: Db) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'teacher'), eq(users.teacherStatus, 'pending'), isNull(users.disabledAt)));
  return Number(row?.n ?? 0);
}

/**
 * Deletes an account and everything that is only theirs: the classes they teach (with lectures, enrollments,
 * notes), their uploads, comments, likes (the counts they added are taken back) and progress. Answers the ids
 * of the videos that went, so their files can be removed once this has committed.
 */
export async function deleteAccount(db: Db, userId: string): Promise<string[]> {
  return transaction(db, async (tx) => {
    const owned = await tx.select({ id: videos.id }).from(videos).where(eq(videos.ownerId, userId));
    const inTheirClasses = await tx
      .select({ id: lectures.videoId })
      .from(lectures)
      .innerJoin(courses, eq(courses.id, lectures.courseId))
      .where(eq(courses.teacherId, userId));
    await tx
      .update(lectures)
      .set({ noOfLikes: greatest(tx, 0, sql`${lectures.noOfLikes} - 1`) })
      .where(inArray(lectures.id, tx.select({ id: likes.lectureId }).from(likes).where(eq(likes.userId, userId))));
    await tx.delete(users).where(eq(users.id, userId));
    const ids = [...owned, ...inTheirClasses].map((row) => row.id).filter((id): id is string => id !== null);
    // A video another teacher's lecture still shows stays (its owner was deleted with the account, so check rows).
    const left = ids.length
      ? new Set((await tx.select({ id: videos.id }).from(videos).where(inArray(videos.id, ids))).map((row) => row.id))
      : new Set<string>();
    return [...new Set(ids)].filter((id) => !left.has(id));
  });
}

/** Every class with its teacher, students and lectures, for the administrator. */
export async function allCourses(db: Db) {
  const rows = await db
    .select({
      course: courses,
      teacher: users.username,
      students:
        sql<number>`(select count(*) from ${enrollments} where ${enrollments.courseId} = ${courses.id})`.mapWith(
          Number,
        ),
      lectures: sql<number>`(select count(*) from ${lectures} where ${lectures.courseId} = ${courses.id})`.mapWith(
        Number,
      ),
    })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.teacherId))
    .orderBy(desc(courses.createdAt));
  const videoRows = await db
    .select({ courseId: lectures.courseId, videoId: lectures.videoId })
    .from(lectures)
    .where(sql`${lectures.videoId} is not null`);
  return { rows, videoRows };
}
