import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Course, courses, enrollments, lectures, type User, type Video, videos } from '../db/schema';
import { forbidden, notFound } from '../errors';

export type CourseAccess = { course: Course; isOwner: boolean; isStudent: boolean };

const courseNotFound = () => notFound('course_not_found', 'Class not found.');

/** These lookups run on nearly every request (each HLS segment too): prepared once per database. */
function prepare(db: Db) {
  const id = sql.placeholder('id');
  return {
    course: db.select().from(courses).where(eq(courses.id, id)).prepare(),
    enrollment: db
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(
        and(
          eq(enrollments.courseId, sql.placeholder('courseId')),
          eq(enrollments.studentId, sql.placeholder('studentId')),
        ),
      )
      .prepare(),
    video: db.select().from(videos).where(eq(videos.id, id)).prepare(),
    lectureCoursesOfVideo: db
      .select({ courseId: lectures.courseId })
      .from(lectures)
      .where(eq(lectures.videoId, id))
      .prepare(),
    lecture: db.select().from(lectures).where(eq(lectures.id, id)).prepare(),
  };
}
const preparedByDb = new WeakMap<Db, ReturnType<typeof prepare>>();
function queries(db: Db) {
  let prepared = preparedByDb.get(db);
  if (!prepared) {
    prepared = prepare(db);
    preparedByDb.set(db, prepared);
  }
  return prepared;
}

/**
 * The course if the user may read it (its teacher, or an enrolled student). Anyone else gets the same
 * 404 as for a course that does not exist, so outsiders learn nothing about which ids are real.
 */
export function readableCourse(db: Db, user: User, courseId: string): CourseAccess {
  const q = queries(db);
  const course = q.course.get({ id: courseId });
  if (!course) throw courseNotFound();
  const isOwner = course.teacherId === user.id;
  const isStudent =
    !isOwner && user.role === 'student' && q.enrollment.get({ courseId, studentId: user.id }) !== undefined;
  if (!isOwner && !isStudent) throw courseNotFound();
  return { course, isOwner, isStudent };
}

/** The course if the user is its teacher; an enrolled student gets 403, anyone else 404. */
export function ownedCourse(db: Db, user: User, courseId: string): Course {
  const access = readableCourse(db, user, courseId);
  if (!access.isOwner) throw forbidden('Only the teacher of this class can do that.');
  return access.course;
}

/**
 * The video if the user may watch it: its uploader, or anyone who can read a class with a lecture
 * that shows it. Anyone else gets the same 404 as for a video that does not exist.
 */
export function watchableVideo(db: Db, user: User, videoId: string): Video {
  const video = queries(db).video.get({ id: videoId });
  const missing = () => notFound('video_not_found', 'Video not found.');
  if (!video) throw missing();
  if (video.ownerId === user.id) return video;
  const courseIds = queries(db)
    .lectureCoursesOfVideo.all({ id: videoId })
    .map((row) => row.courseId);
  for (const courseId of courseIds) {
    try {
      readableCourse(db, user, courseId);
      return video;
    } catch {
      // not this class; try the next
    }
  }
  throw missing();
}

/** The lecture and its class if the user can read the class; outsiders get the lecture's 404. */
export function readableLecture(db: Db, user: User, lectureId: string) {
  const lecture = queries(db).lecture.get({ id: lectureId });
  const missing = () => notFound('lecture_not_found', 'Lecture not found.');
  if (!lecture) throw missing();
  try {
    return { lecture, ...readableCourse(db, user, lecture.courseId) };
  } catch {
    throw missing();
  }
}
