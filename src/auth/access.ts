import { and, eq, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { type Course, courses, enrollments, type Lecture, lectures, type User, type Video, videos } from '../db/schema';
import { ApiError, forbidden, notFound } from '../errors';
import type { MessageKey } from '../i18n/translate';

/**
 * Who may do what, defined once. A user's place in a class is a membership: `teacher` (today the class's
 * owner; co-teachers later) or `student` (enrolled). Reading needs any membership; changing the class, its
 * lectures and seeing its progress needs `teacher`. Outsiders get the same 404 as for an id that does not
 * exist, so they learn nothing about which ids are real.
 */
export type Membership = 'teacher' | 'student';
export type CourseAccess = { course: Course; membership: Membership; isOwner: boolean; isStudent: boolean };

const courseNotFound = () => notFound('course_not_found', 'errors.classNotFound');
const lectureNotFound = () => notFound('lecture_not_found', 'errors.lectureNotFound');
const videoNotFound = () => notFound('video_not_found', 'errors.videoNotFound');
export const onlyTheTeacher = () => forbidden('errors.onlyTheTeacher');

/**
 * The SQL condition "this user is a member of the class in `courseId`", for list queries
 * (class list, history, the video check). The per-id checks below use the same rule.
 */
export function isMemberOf(courseId: SQL | SQLiteColumn, userId: string | Placeholder): SQL {
  return or(
    sql`exists (select 1 from ${courses} c where c.id = ${courseId} and c.teacher_id = ${userId})`,
    sql`exists (select 1 from ${enrollments} e where e.course_id = ${courseId} and e.student_id = ${userId})`,
  ) as SQL;
}

/* These lookups run on nearly every request (each HLS segment too). */
const enrollmentQuery = preparedStatement('enrollment_of', (db: Db) =>
  db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(
      and(eq(enrollments.courseId, sql.placeholder('courseId')), eq(enrollments.studentId, sql.placeholder('userId'))),
    )
    .limit(1),
);
const videoQuery = preparedStatement('video_by_id', (db: Db) =>
  db
    .select()
    .from(videos)
    .where(eq(videos.id, sql.placeholder('id')))
    .limit(1),
);
const videoInReadableCourseQuery = preparedStatement('video_in_readable_course', (db: Db) =>
  db
    .select({ courseId: lectures.courseId })
    .from(lectures)
    .where(and(eq(lectures.videoId, sql.placeholder('id')), isMemberOf(lectures.courseId, sql.placeholder('userId'))))
    .limit(1),
);

/* A class or a lecture with the user's enrollment in it, in one round trip: read on nearly every request. */
const enrollmentOfUser = () =>
  and(eq(enrollments.courseId, courses.id), eq(enrollments.studentId, sql.placeholder('userId')));
const courseAccessQuery = preparedStatement('course_access', (db: Db) =>
  db
    .select({ course: courses, enrollmentId: enrollments.id })
    .from(courses)
    .leftJoin(enrollments, enrollmentOfUser())
    .where(eq(courses.id, sql.placeholder('id')))
    .limit(1),
);
const lectureAccessQuery = preparedStatement('lecture_access', (db: Db) =>
  db
    .select({ lecture: lectures, course: courses, enrollmentId: enrollments.id })
    .from(lectures)
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .leftJoin(enrollments, enrollmentOfUser())
    .where(eq(lectures.id, sql.placeholder('id')))
    .limit(1),
);

/** The user's membership of a class, or undefined when they have none. */
export async function membershipOf(db: Db, user: Pick<User, 'id' | 'role'>, course: Course) {
  // Only a student who does not teach the class needs the enrollment read.
  if (course.teacherId === user.id || user.role !== 'student') return membershipFrom(user, course, false);
  const [enrolled] = await enrollmentQuery(db, { courseId: course.id, userId: user.id });
  return membershipFrom(user, course, enrolled !== undefined);
}

/** Who the user is to the class (the one rule), given whether they have an enrollment in it. */
function membershipFrom(user: Pick<User, 'id' | 'role'>, course: Course, enrolled: boolean): Membership | undefined {
  if (course.teacherId === user.id) return 'teacher';
  return user.role === 'student' && enrolled ? 'student' : undefined;
}
const accessOf = (course: Course, membership: Membership): CourseAccess => ({
  course,
  membership,
  isOwner: membership === 'teacher',
  isStudent: membership === 'student',
});

/** The class if the user may read it (any membership); anyone else gets the class's 404. */
export async function readableCourse(db: Db, user: User, courseId: string): Promise<CourseAccess> {
  const [row] = await courseAccessQuery(db, { id: courseId, userId: user.id });
  const membership = row && membershipFrom(user, row.course, row.enrollmentId !== null);
  if (!row || !membership) throw courseNotFound();
  return accessOf(row.course, membership);
}

/** The class if the user teaches it; a student of it gets 403, anyone else 404. */
export async function taughtCourse(db: Db, user: User, courseId: string): Promise<Course> {
  const access = await readableCourse(db, user, courseId);
  if (access.membership !== 'teacher') throw onlyTheTeacher();
  return access.course;
}

/** The lecture and its class if the user can read the class; outsiders get the lecture's 404. */
export async function readableLecture(db: Db, user: User, lectureId: string) {
  const [row] = await lectureAccessQuery(db, { id: lectureId, userId: user.id });
  const membership = row && membershipFrom(user, row.course, row.enrollmentId !== null);
  if (!row || !membership) throw lectureNotFound();
  return { lecture: row.lecture, ...accessOf(row.course, membership) };
}

/** The lecture if the user teaches its class; a student of it gets 403, anyone else the lecture's 404. */
export async function taughtLecture(db: Db, user: User, lectureId: string): Promise<Lecture> {
  const access = await readableLecture(db, user, lectureId);
  if (access.membership !== 'teacher') throw onlyTheTeacher();
  return access.lecture;
}

/**
 * The lecture if the user may save it for offline viewing: anyone who may watch it, while its class allows
 * downloads; its teacher always. A student of a class with downloads off gets 403 `downloads_off`, anyone else the
 * lecture's 404 (a student removed from the class too).
 */
export async function downloadableLecture(db: Db, user: User, lectureId: string) {
  const access = await readableLecture(db, user, lectureId);
  if (access.membership !== 'teacher' && !access.course.downloadsAllowed) {
    throw new ApiError(403, 'downloads_off', 'errors.downloadsOff');
  }
  return access;
}

/**
 * The video if the user may watch it: its uploader, or a member of a class with a lecture that shows it.
 * Anyone else gets the same 404 as for a video that does not exist.
 */
export async function watchableVideo(db: Db, user: User, videoId: string): Promise<Video> {
  const [video] = await videoQuery(db, { id: videoId });
  if (!video) throw videoNotFound();
  if (video.ownerId === user.id) return video;
  if ((await videoInReadableCourseQuery(db, { id: videoId, userId: user.id })).length > 0) return video;
  throw videoNotFound();
}

/** The video if the user uploaded it (to retry, trim or delete it); anyone else gets its 404, or 403 with `refusal`. */
export async function ownVideo(
  db: Db,
  user: User,
  videoId: string,
  refusal: MessageKey = 'errors.onlyUploaderCanRetry',
): Promise<Video> {
  const video = await watchableVideo(db, user, videoId);
  if (video.ownerId !== user.id) throw forbidden(refusal);
  return video;
}
