import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { isMemberOf } from '../../auth/access';
import type { CommentRow, HistoryRow } from '../../contract/engagement';
import { posterPath } from '../../contract/videos';
import { emit } from '../../events/events';
import { newId } from '../../lib/ids';
import type { Db } from '../client';
import { greatest } from '../dialect';
import { preparedStatement } from '../prepared';
import { comments, courses, enrollments, lectures, users, videos, watchProgress } from '../schema';
import { transaction } from '../transaction';

const COMMENTS_PAGE = 500;
const HISTORY_LIMIT = 200;
/** A lecture counts as finished within the last 5 seconds or 95%. */
const isFinished = (position: number, duration: number) =>
  duration > 0 && (position >= duration - 5 || position / duration >= 0.95);

// A function, not a constant: the columns are read when the query is built, after openDatabase chose the engine.
const commentColumns = () => ({
  id: comments.id,
  text: comments.text,
  createdAt: comments.createdAt,
  userId: comments.userId,
  username: users.username,
  avatarVersion: users.avatarVersion,
  parentId: comments.parentId,
});

/** The newest comments of a lecture, with their authors (a hot path). */
const newestComments = preparedStatement('newest_comments', (db: Db) =>
  db
    .select(commentColumns())
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(eq(comments.lectureId, sql.placeholder('lectureId')))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(COMMENTS_PAGE),
);
export async function commentsOf(db: Db, lectureId: string): Promise<CommentRow[]> {
  return newestComments(db, { lectureId });
}

export async function addComment(
  db: Db,
  values: { lectureId: string; userId: string; text: string; parentId?: string | null },
) {
  return transaction(db, async (tx) => {
    const [row] = await tx
      .insert(comments)
      .values({ id: newId(), ...values })
      .returning();
    await emit(tx, { type: 'comment-posted', commentId: (row as NonNullable<typeof row>).id });
    return row as NonNullable<typeof row>;
  });
}

export async function commentOfLecture(db: Db, lectureId: string, commentId: string) {
  const [comment] = await db
    .select()
    .from(comments)
    .where(and(eq(comments.id, commentId), eq(comments.lectureId, lectureId)))
    .limit(1);
  return comment;
}

export async function deleteComment(db: Db, commentId: string) {
  await db.delete(comments).where(eq(comments.id, commentId));
}

/** Saving a position, prepared once per database: every watching student saves one every few seconds. */
const saveProgressQuery = preparedStatement('save_progress', (db: Db) => {
  const position = sql.placeholder('position');
  const duration = sql.placeholder('duration');
  const finished = sql.placeholder('finished');
  const now = sql.placeholder('now');
  return db
    .insert(watchProgress)
    .values({
      userId: sql.placeholder('userId'),
      lectureId: sql.placeholder('lectureId'),
      positionSeconds: position,
      durationSeconds: duration,
      furthestSeconds: position,
      completed: finished,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [watchProgress.userId, watchProgress.lectureId],
      set: {
        positionSeconds: sql`${position}`,
        durationSeconds: sql`${duration}`,
        furthestSeconds: greatest(db, watchProgress.furthestSeconds, position),
        completed: sql`${watchProgress.completed} OR ${finished}`,
        updatedAt: sql`${now}`,
      },
    })
    .returning();
});

/** Records where the user is; the furthest point and "finished" only ever grow. */
export async function saveProgress(db: Db, userId: string, lectureId: string, position: number, duration: number) {
  const [row] = await saveProgressQuery(db, {
    userId,
    lectureId,
    position,
    duration,
    finished: isFinished(position, duration),
    now: Date.now(),
  });
  return row as NonNullable<typeof row>;
}

/** The rows of the teacher's table for a class: enrolled students, lectures, and every progress row between them. */
export async function courseProgress(db: Db, courseId: string) {
  const students = await db
    .select({ id: users.id, username: users.username, avatarVersion: users.avatarVersion })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .where(eq(enrollments.courseId, courseId))
    .orderBy(asc(users.username));
  const lectureRows = await db
    .select({ id: lectures.id, nameOfTopic: lectures.nameOfTopic })
    .from(lectures)
    .where(eq(lectures.courseId, courseId))
    .orderBy(asc(lectures.createdAt));
  const progress =
    students.length && lectureRows.length
      ? await db
          .select()
          .from(watchProgress)
          .where(
            and(
              inArray(
                watchProgress.lectureId,
                lectureRows.map((l) => l.id),
              ),
              inArray(
                watchProgress.userId,
                students.map((s) => s.id),
              ),
            ),
          )
      : [];
  return { students, lectures: lectureRows, progress };
}

/** What the user watched, newest first, in classes they can still read. */
export async function historyOf(db: Db, userId: string): Promise<HistoryRow[]> {
  const rows = await db
    .select({
      progress: watchProgress,
      lectureId: lectures.id,
      nameOfTopic: lectures.nameOfTopic,
      courseId: courses.id,
      courseName: courses.courseName,
      videoId: videos.id,
      hasPoster: videos.hasPoster,
    })
    .from(watchProgress)
    .innerJoin(lectures, eq(lectures.id, watchProgress.lectureId))
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .leftJoin(videos, eq(videos.id, lectures.videoId))
    .where(and(eq(watchProgress.userId, userId), isMemberOf(courses.id, userId)))
    .orderBy(desc(watchProgress.updatedAt))
    .limit(HISTORY_LIMIT);
  return rows.map(({ videoId, hasPoster, ...row }) => ({
    ...row,
    posterUrl: videoId && hasPoster ? posterPath(videoId) : null,
  }));
}
