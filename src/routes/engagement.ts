import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { readableCourse, readableLecture } from '../auth/course-access';
import { comments, enrollments, lectures, likes, users, viewMarks, watchProgress } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { idParam, idSchema, validate } from '../validation';
import { toPublicUser } from './users';

export const VIEW_WINDOW_MS = 60 * 60 * 1000;
export const MAX_COMMENT_LENGTH = 2000;
const COMMENTS_PAGE = 500;
/** A lecture counts as finished within the last 5 seconds or 95%. */
const isFinished = (position: number, duration: number) =>
  duration > 0 && (position >= duration - 5 || position / duration >= 0.95);

const commentBody = z.object({
  text: z
    .string({ error: 'Comment text is required.' })
    .trim()
    .min(1, 'A comment cannot be blank.')
    .max(MAX_COMMENT_LENGTH, `A comment can be at most ${MAX_COMMENT_LENGTH.toLocaleString('en')} characters.`),
});
const progressBody = z.object({
  position: z
    .number({ error: 'Position must be a number of seconds.' })
    .min(0)
    .max(24 * 60 * 60),
  duration: z
    .number({ error: 'Duration must be a number of seconds.' })
    .positive()
    .max(24 * 60 * 60),
});
const commentParam = z.object({ id: idSchema, commentId: idSchema });
const courseParam = z.object({ courseId: idSchema });

/** Views, likes, comments and watch progress of lectures; mounted inside the lectures routes (already authenticated). */
export function engagementRoutes(deps: AppDeps) {
  const { db } = deps;

  const commentJson = (row: {
    id: string;
    text: string;
    createdAt: number;
    userId: string;
    username: string;
    avatarVersion: number;
  }) => ({
    _id: row.id,
    text: row.text,
    createdAt: new Date(row.createdAt).toISOString(),
    userId: toPublicUser({ id: row.userId, username: row.username, avatarVersion: row.avatarVersion }),
  });
  const commentColumns = {
    id: comments.id,
    text: comments.text,
    createdAt: comments.createdAt,
    userId: comments.userId,
    username: users.username,
    avatarVersion: users.avatarVersion,
  };
  const commentsOfLecture = db
    .select(commentColumns)
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(eq(comments.lectureId, sql.placeholder('lectureId')))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(COMMENTS_PAGE)
    .prepare();
  const likeCount = (lectureId: string) =>
    db.select({ n: lectures.noOfLikes }).from(lectures).where(eq(lectures.id, lectureId)).get()?.n ?? 0;

  return new Hono<AppEnv>()
    .patch('/:id/view', validate('param', idParam), (c) => {
      const user = c.get('user');
      const { lecture } = readableLecture(db, user, c.req.valid('param').id);
      const now = Date.now();
      const counted = db.transaction(
        (tx) => {
          // Counts only when this user's last counted view is over an hour old (or there is none).
          const mark = tx
            .insert(viewMarks)
            .values({ lectureId: lecture.id, userId: user.id, countedAt: now })
            .onConflictDoUpdate({
              target: [viewMarks.lectureId, viewMarks.userId],
              set: { countedAt: now },
              setWhere: sql`${viewMarks.countedAt} <= ${now - VIEW_WINDOW_MS}`,
            })
            .returning()
            .get();
          if (!mark) return false;
          tx.update(lectures)
            .set({ noOfViews: sql`${lectures.noOfViews} + 1` })
            .where(eq(lectures.id, lecture.id))
            .run();
          return true;
        },
        { behavior: 'immediate' },
      );
      const views =
        db.select({ n: lectures.noOfViews }).from(lectures).where(eq(lectures.id, lecture.id)).get()?.n ?? 0;
      return c.json({ noOfViews: views, counted });
    })

    .patch('/:id/like', validate('param', idParam), (c) => {
      const user = c.get('user');
      const { lecture } = readableLecture(db, user, c.req.valid('param').id);
      // The spec's client adds one locally on success, so a second like must fail rather than answer 200.
      const added = db.transaction(
        (tx) => {
          const row = tx
            .insert(likes)
            .values({ lectureId: lecture.id, userId: user.id })
            .onConflictDoNothing()
            .returning()
            .get();
          if (!row) return false;
          tx.update(lectures)
            .set({ noOfLikes: sql`${lectures.noOfLikes} + 1` })
            .where(eq(lectures.id, lecture.id))
            .run();
          return true;
        },
        { behavior: 'immediate' },
      );
      if (!added)
        throw new ApiError(409, 'already_liked', 'You already liked this lecture.', {
          noOfLikes: likeCount(lecture.id),
        });
      return c.json({ noOfLikes: likeCount(lecture.id), liked: true });
    })

    .delete('/:id/like', validate('param', idParam), (c) => {
      const user = c.get('user');
      const { lecture } = readableLecture(db, user, c.req.valid('param').id);
      db.transaction(
        (tx) => {
          const removed = tx
            .delete(likes)
            .where(and(eq(likes.lectureId, lecture.id), eq(likes.userId, user.id)))
            .returning()
            .get();
          if (removed) {
            tx.update(lectures)
              .set({ noOfLikes: sql`max(0, ${lectures.noOfLikes} - 1)` })
              .where(eq(lectures.id, lecture.id))
              .run();
          }
        },
        { behavior: 'immediate' },
      );
      return c.json({ noOfLikes: likeCount(lecture.id), liked: false });
    })

    .get('/:id/comments', validate('param', idParam), (c) => {
      const { lecture } = readableLecture(db, c.get('user'), c.req.valid('param').id);
      const rows = commentsOfLecture.all({ lectureId: lecture.id });
      return c.json(rows.map(commentJson));
    })

    .post('/:id/comments', validate('param', idParam), validate('json', commentBody), (c) => {
      const user = c.get('user');
      const { lecture } = readableLecture(db, user, c.req.valid('param').id);
      const row = db
        .insert(comments)
        .values({ id: newId(), lectureId: lecture.id, userId: user.id, text: c.req.valid('json').text })
        .returning()
        .get();
      return c.json(commentJson({ ...row, username: user.username, avatarVersion: user.avatarVersion }), 201);
    })

    .delete('/:id/comments/:commentId', validate('param', commentParam), (c) => {
      const user = c.get('user');
      const { id, commentId } = c.req.valid('param');
      const { lecture, isOwner } = readableLecture(db, user, id);
      const comment = db
        .select()
        .from(comments)
        .where(and(eq(comments.id, commentId), eq(comments.lectureId, lecture.id)))
        .get();
      if (!comment) throw notFound('comment_not_found', 'Comment not found.');
      if (comment.userId !== user.id && !isOwner)
        throw forbidden('Only the author or the teacher can delete a comment.');
      db.delete(comments).where(eq(comments.id, comment.id)).run();
      return c.json({ message: 'Comment deleted' });
    })

    .put('/:id/progress', validate('param', idParam), validate('json', progressBody), (c) => {
      const user = c.get('user');
      const { lecture } = readableLecture(db, user, c.req.valid('param').id);
      const { duration } = c.req.valid('json');
      const position = Math.min(c.req.valid('json').position, duration);
      const finished = isFinished(position, duration);
      const now = Date.now();
      const row = db
        .insert(watchProgress)
        .values({
          userId: user.id,
          lectureId: lecture.id,
          positionSeconds: position,
          durationSeconds: duration,
          furthestSeconds: position,
          completed: finished,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [watchProgress.userId, watchProgress.lectureId],
          set: {
            positionSeconds: position,
            durationSeconds: duration,
            furthestSeconds: sql`max(${watchProgress.furthestSeconds}, ${position})`,
            completed: sql`${watchProgress.completed} OR ${finished ? 1 : 0}`,
            updatedAt: now,
          },
        })
        .returning()
        .get();
      return c.json({
        position: row.positionSeconds,
        duration: row.durationSeconds,
        furthest: row.furthestSeconds,
        completed: row.completed,
      });
    })

    .get('/course/:courseId/progress', validate('param', courseParam), (c) => {
      const { course, isOwner } = readableCourse(db, c.get('user'), c.req.valid('param').courseId);
      if (!isOwner) throw forbidden('Only the teacher of this class can see who watched what.');
      const students = db
        .select({ id: users.id, username: users.username, avatarVersion: users.avatarVersion })
        .from(enrollments)
        .innerJoin(users, eq(users.id, enrollments.studentId))
        .where(eq(enrollments.courseId, course.id))
        .orderBy(asc(users.username))
        .all();
      const lectureRows = db
        .select({ id: lectures.id, nameOfTopic: lectures.nameOfTopic })
        .from(lectures)
        .where(eq(lectures.courseId, course.id))
        .orderBy(asc(lectures.createdAt))
        .all();
      const studentIds = students.map((s) => s.id);
      const progressRows =
        studentIds.length && lectureRows.length
          ? db
              .select()
              .from(watchProgress)
              .where(
                and(
                  inArray(
                    watchProgress.lectureId,
                    lectureRows.map((l) => l.id),
                  ),
                  inArray(watchProgress.userId, studentIds),
                ),
              )
              .all()
          : [];
      return c.json({
        students: students.map((s) => toPublicUser(s)),
        lectures: lectureRows.map((lecture) => {
          const rows = progressRows.filter((row) => row.lectureId === lecture.id);
          return {
            _id: lecture.id,
            nameOfTopic: lecture.nameOfTopic,
            started: rows.length,
            finished: rows.filter((row) => row.completed).length,
            enrolled: students.length,
            watchers: rows.map((row) => ({
              studentId: row.userId,
              watchedPercent: row.durationSeconds ? Math.round((row.furthestSeconds / row.durationSeconds) * 100) : 0,
              completed: row.completed,
              updatedAt: new Date(row.updatedAt).toISOString(),
            })),
          };
        }),
      });
    });
}
